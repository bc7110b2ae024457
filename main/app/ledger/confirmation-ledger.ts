import type { LedgerRecord } from '../../../domain/ledger';
import type { NewConfirmation } from '../outbox/outbox-entry';
import type { Ledger } from './ledger';

/**
 * What confirm.ts asks of the ledger: record the action a confirmation reports and give back the
 * entry's hash, which the confirmation then carries to the service.
 */
export interface ConfirmationLedger {
  record(confirmation: NewConfirmation): Promise<string>;
  /** The ledger could not record (disk full, lock held too long): the confirmation still goes, without a hash. */
  onRecordFailed?(error: unknown, confirmation: NewConfirmation): void;
}

/** The ledger record of what a confirmation says: the same outcome, device, time and workstation. */
export function ledgerRecordOf(confirmation: NewConfirmation, who: { workstation: string; actor?: string }): LedgerRecord {
  const { payload } = confirmation;
  const success = confirmation.kind === 'firmware' ? confirmation.payload.firmwareFileSuccessfullyDeployed === true : confirmation.payload.configurationFileSuccessfullyDeployed;
  const facts: LedgerRecord['facts'] =
    confirmation.kind === 'firmware'
      ? { firmwareVersion: confirmation.payload.firmwareVersion ?? null }
      : { syncId: confirmation.payload.syncId };
  if (payload.reason) facts.reason = payload.reason;
  return {
    at: payload.observedAt ?? payload.applyTimeStamp,
    action: confirmation.kind === 'firmware' ? 'firmware-install' : 'configuration-apply',
    outcome: success ? 'success' : 'failure',
    serialNumber: confirmation.serialNumber,
    workstation: payload.workstation ?? who.workstation,
    ...(who.actor ? { actor: who.actor } : {}),
    serviceUrl: confirmation.serviceUrl,
    orgId: confirmation.orgId,
    facts: { ...facts, appliedAt: payload.applyTimeStamp },
    ...(payload.error ? { error: payload.error } : {}),
  };
}

export function confirmationLedger(
  ledger: Pick<Ledger, 'append'>,
  who: () => Promise<{ workstation: string; actor?: string }>,
  onRecordFailed?: (error: unknown, confirmation: NewConfirmation) => void,
): ConfirmationLedger {
  return {
    async record(confirmation) {
      const entry = await ledger.append(ledgerRecordOf(confirmation, await who()));
      return entry.hash;
    },
    ...(onRecordFailed ? { onRecordFailed } : {}),
  };
}

/**
 * The confirmation with its ledger entry's hash, once the entry is on disk. A ledger that cannot
 * record never holds a confirmation back: losing the service's record of an apply would be worse
 * than a confirmation without its hash, and the failure is reported.
 */
export async function withLedgerHash(ledger: ConfirmationLedger | undefined, confirmation: NewConfirmation): Promise<NewConfirmation> {
  if (!ledger) return confirmation;
  try {
    const ledgerHash = await ledger.record(confirmation);
    return { ...confirmation, payload: { ...confirmation.payload, ledgerHash } } as NewConfirmation;
  } catch (error) {
    ledger.onRecordFailed?.(error, confirmation);
    return confirmation;
  }
}
