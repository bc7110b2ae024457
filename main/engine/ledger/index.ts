export { Ledger, LEDGER_FILE, type LedgerOptions } from './ledger';
export { LEDGER_KEY_SECRET } from './ledger-key';
export {
  checkChainFromHead,
  ledgerFromLines,
  type ChainFromHead,
  type ChainFromHeadOptions,
  type LedgerFromHead,
} from './chain-from-head';
export { readLedgerBackward, type BackwardLine } from './ledger-backward';
export {
  confirmationLedger,
  confirmationOfEntry,
  ledgerRecordOf,
  withLedgerHash,
  type ConfirmationLedger,
  type FirmwareImageFacts,
} from './confirmation-ledger';
export { openWorkstationLedger } from './workstation-ledger';
export type { ChainCheck, LedgerEntry, LedgerLine, LedgerRecord } from '../../../domain/ledger';
export {
  compareWithService,
  fetchOrgLedger,
  sendLedger,
  verifyLedgers,
  type KeyListSource,
  type LedgerAccount,
  type LedgerVerification,
  type LedgerVerifyProgress,
} from './service-ledger';
export { refreshWorkstationKeys, WorkstationKeyCache, WORKSTATION_KEY_LIST_FILE } from './workstation-key-cache';
