import { CONFIRMATION_REASONS, type ConfirmationReason } from '../../../domain/confirmations';
import type { LedgerEntry, LedgerRecord } from '../../../domain/ledger';
import type { NewConfirmation } from '../outbox/outbox-entry';
import type { Ledger } from './ledger';

/**
 * What confirm.ts asks of the ledger: record the action a confirmation reports and give back the
 * entry's hash and number (the ledger's head just after it), which the confirmation then carries to
 * the service.
 */
export interface ConfirmationLedger {
  record(confirmation: NewConfirmation, image?: FirmwareImageFacts): Promise<{ hash: string; seq: number }>;
  /** The ledger could not record (disk full, lock held too long): the confirmation still goes, without a hash. */
  onRecordFailed?(error: unknown, confirmation: NewConfirmation): void;
  /**
   * The entries recorded at `since` or later, oldest first: an interrupted job's outcome may be
   * among them (recorded, and the process killed before its confirmation reached the outbox).
   * Absent where the ledger is not read back (tests).
   */
  recordedSince?(since: Date): Promise<LedgerEntry[]>;
}

/**
 * The image a firmware install is about, as its bundle's signed manifest says (what the device
 * checked): kept in the ledger entry, so that a commissioning report names the image and its signer
 * from the ledger alone, when the bundle is long gone from the firmware cache. Not part of the
 * confirmation: the service knows its bundles.
 */
export interface FirmwareImageFacts {
  /** SHA-256 of the image (hex), the one the manifest signs. */
  imageSha256: string;
  /** The release key that signed the manifest: its id, and the name the service gave it. */
  signingKeyId: string;
  signingKeyName: string;
}

/**
 * The ledger record of what a confirmation says: the same outcome, device, time and workstation;
 * for a firmware install, the image and its signer when the job knew them.
 */
export function ledgerRecordOf(
  confirmation: NewConfirmation,
  who: { workstation: string; actor?: string },
  image?: FirmwareImageFacts,
): LedgerRecord {
  const { payload } = confirmation;
  const success =
    confirmation.kind === 'firmware'
      ? confirmation.payload.firmwareFileSuccessfullyDeployed === true
      : confirmation.payload.configurationFileSuccessfullyDeployed;
  const facts: LedgerRecord['facts'] =
    confirmation.kind === 'firmware'
      ? { firmwareVersion: confirmation.payload.firmwareVersion ?? null, ...(image ? { ...image } : {}) }
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

/**
 * The confirmation a ledger entry of a firmware install or configuration apply stands for, carrying
 * the entry's hash and number: ledgerRecordOf read backwards. It says what the confirmation written
 * with the entry said, field for field, so the service takes it for a replay of that one if it had
 * it already. null for an entry of another action, or one that does not say enough.
 */
export function confirmationOfEntry(entry: LedgerEntry): NewConfirmation | null {
  const { facts } = entry;
  if (!entry.serviceUrl || !entry.orgId || typeof facts.appliedAt !== 'string') return null;
  const success = entry.outcome === 'success';
  const fields = {
    error: entry.error ?? null,
    applyTimeStamp: facts.appliedAt,
    observedAt: entry.at,
    workstation: entry.workstation,
    ...(isConfirmationReason(facts.reason) ? { reason: facts.reason } : {}),
    ledgerHash: entry.hash,
    ledgerSeq: entry.seq,
  };
  const addressed = { serviceUrl: entry.serviceUrl, orgId: entry.orgId, serialNumber: entry.serialNumber };
  if (entry.action === 'firmware-install') {
    const version = facts.firmwareVersion;
    if (version !== null && typeof version !== 'string') return null;
    return {
      kind: 'firmware',
      ...addressed,
      payload: { firmwareFileSuccessfullyDeployed: success, firmwareVersion: version ?? null, ...fields },
    };
  }
  if (entry.action === 'configuration-apply' && typeof facts.syncId === 'string') {
    return {
      kind: 'configuration',
      ...addressed,
      payload: { configurationFileSuccessfullyDeployed: success, syncId: facts.syncId, ...fields },
    };
  }
  return null;
}

function isConfirmationReason(value: unknown): value is ConfirmationReason {
  return (CONFIRMATION_REASONS as readonly unknown[]).includes(value);
}

export function confirmationLedger(
  ledger: Pick<Ledger, 'append'> & Partial<Pick<Ledger, 'entriesSince'>>,
  who: () => Promise<{ workstation: string; actor?: string }>,
  onRecordFailed?: (error: unknown, confirmation: NewConfirmation) => void,
): ConfirmationLedger {
  const entriesSince = ledger.entriesSince?.bind(ledger);
  return {
    async record(confirmation, image) {
      const entry = await ledger.append(ledgerRecordOf(confirmation, await who(), image));
      return { hash: entry.hash, seq: entry.seq };
    },
    ...(onRecordFailed ? { onRecordFailed } : {}),
    ...(entriesSince ? { recordedSince: (since: Date) => entriesSince(since) } : {}),
  };
}

/**
 * The confirmation with its ledger entry's hash, once the entry is on disk. A ledger that cannot
 * record never holds a confirmation back: losing the service's record of an apply would be worse
 * than a confirmation without its hash, and the failure is reported.
 */
export async function withLedgerHash(
  ledger: ConfirmationLedger | undefined,
  confirmation: NewConfirmation,
  image?: FirmwareImageFacts,
): Promise<NewConfirmation> {
  if (!ledger) return confirmation;
  try {
    const head = await ledger.record(confirmation, image);
    return {
      ...confirmation,
      payload: { ...confirmation.payload, ledgerHash: head.hash, ledgerSeq: head.seq },
    } as NewConfirmation;
  } catch (error) {
    ledger.onRecordFailed?.(error, confirmation);
    return confirmation;
  }
}
