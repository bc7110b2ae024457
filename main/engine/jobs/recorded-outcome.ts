import type { LedgerEntry } from '../../../domain/ledger';
import { confirmationOfEntry, withLedgerHash, type ConfirmationLedger } from '../ledger/confirmation-ledger';
import type { NewConfirmation } from '../outbox/outbox-entry';
import type { Outbox } from '../outbox/outbox';
import type { JobIntent } from './intent-journal';

/**
 * Closing a job whose process died. A job records its outcome in the ledger (fsync'd), then writes
 * its confirmation to the outbox, then clears its intent (confirm.ts): a process killed between any
 * two of these leaves an intent whose outcome may already be in the ledger, and in the outbox too.
 * Such a job is confirmed under the entry it recorded, never judged again under a new one: the
 * entry would be a confirmed action the service never hears of (the soak bench counted it lost),
 * and the ledger would hold two entries for one apply. Only a job that recorded nothing is judged
 * now (reconcile.ts from its device, confirm.ts when it expired) and its judgement recorded.
 */

/** An interrupted job's outcome judged now, and the confirmation that says it (null when there is nothing to confirm). */
export interface JudgedOutcome {
  success: boolean;
  confirmation: NewConfirmation | null;
}

export interface InterruptedJobClosing {
  /** Confirmations this wrote to the outbox: none when the outbox already held the recorded ones. */
  confirmations: NewConfirmation[];
  /** The job's outcome: as recorded (its last entry), or as judged now. */
  success: boolean;
  /** The outcome came from the ledger, recorded by the job itself. */
  recorded: boolean;
}

export interface InterruptedJobContext {
  /** Every interrupted job's intent: a job's entries end where the next job on its device began. */
  orphans: readonly JobIntent[];
  ledger: ConfirmationLedger | undefined;
  outbox: Pick<Outbox, 'enqueue' | 'list'>;
}

/**
 * Confirms an interrupted job's outcome: under the entries the job recorded, if any (each written
 * to the outbox unless it holds one carrying that entry's hash already), else as `judge` says,
 * recorded in the ledger first. The caller clears the intent once this resolves.
 */
export async function closeInterruptedJob(
  intent: JobIntent,
  context: InterruptedJobContext,
  judge: () => JudgedOutcome,
): Promise<InterruptedJobClosing> {
  const recorded = (await entriesOfInterruptedJob(intent, context)).flatMap((entry) => {
    const confirmation = confirmationOfEntry(entry);
    return confirmation ? [{ entry, confirmation }] : [];
  });
  if (recorded.length > 0) {
    const held = new Set((await context.outbox.list()).map((e) => e.payload.ledgerHash));
    const confirmations: NewConfirmation[] = [];
    for (const { entry, confirmation } of recorded) {
      if (held.has(entry.hash)) continue;
      await context.outbox.enqueue(confirmation);
      confirmations.push(confirmation);
    }
    return { confirmations, success: recorded.at(-1)!.entry.outcome === 'success', recorded: true };
  }
  const judged = judge();
  if (!judged.confirmation) return { confirmations: [], success: judged.success, recorded: false };
  // Recorded in the ledger first, as every confirmed action is.
  const confirmation = await withLedgerHash(context.ledger, judged.confirmation);
  await context.outbox.enqueue(confirmation);
  return { confirmations: [confirmation], success: judged.success, recorded: false };
}

/**
 * The entries the interrupted job recorded: of its device, its action and what it installed or
 * applied, for its service and organization, timed from its start until the next interrupted job
 * of the same device and kind began (jobs on one device run one after another). The ledger does
 * not name the job that wrote an entry, hence the match on what the entry says. A ledger that
 * cannot be read back gives none: the job is then judged and recorded anew, which doubles its
 * entry but loses no confirmation.
 */
async function entriesOfInterruptedJob(intent: JobIntent, context: InterruptedJobContext): Promise<LedgerEntry[]> {
  if (!context.ledger?.recordedSince) return [];
  const startedAt = new Date(intent.startedAt);
  const next = context.orphans
    .filter((o) => o.serialNumber === intent.serialNumber && o.kind === intent.kind && o.startedAt > intent.startedAt)
    .map((o) => Date.parse(o.startedAt))
    .sort((a, b) => a - b)[0];
  let entries: LedgerEntry[];
  try {
    entries = await context.ledger.recordedSince(startedAt);
  } catch {
    return [];
  }
  return entries.filter((entry) => (next === undefined || Date.parse(entry.at) < next) && isEntryOf(intent, entry));
}

function isEntryOf(intent: JobIntent, entry: LedgerEntry): boolean {
  if (entry.serialNumber !== intent.serialNumber) return false;
  if (entry.serviceUrl !== intent.serviceUrl || entry.orgId !== intent.orgId) return false;
  // A job's result (its own, or one judged after an interruption): never an observation.
  if (entry.facts.reason !== undefined && entry.facts.reason !== 'job-result') return false;
  if (intent.kind === 'firmware')
    return entry.action === 'firmware-install' && entry.facts.firmwareVersion === intent.firmwareVersion;
  return (
    entry.action === 'configuration-apply' &&
    intent.syncId !== null &&
    typeof entry.facts.syncId === 'string' &&
    entry.facts.syncId.toLowerCase() === intent.syncId.toLowerCase()
  );
}
