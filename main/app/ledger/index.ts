export { Ledger, LEDGER_FILE, type LedgerOptions } from './ledger';
export { LEDGER_KEY_SECRET } from './ledger-key';
export type { ChainCheck, LedgerEntry, LedgerLine, LedgerRecord } from '../../../domain/ledger';
