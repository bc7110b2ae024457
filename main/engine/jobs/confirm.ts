import type { ConfirmationReason } from '../../../domain/confirmations';
import type { NewConfirmation } from '../outbox/outbox-entry';
import type { Outbox } from '../outbox/outbox';
import type { IntentJournal, JobIntent } from './intent-journal';
import { TEXT_LIMITS } from '../../../domain/text-limits';
import { withLedgerHash, type ConfirmationLedger, type FirmwareImageFacts } from '../ledger/confirmation-ledger';
import { closeInterruptedJob } from './recorded-outcome';

/**
 * Confirmations go to the service only through the outbox: written durably first, then sent, and
 * replayed until the service has them. A job's result is "sent" when the service acknowledged it
 * at once, "queued" when it waits (service unreachable); either way it is not lost. Each says what
 * was observed, when, by which workstation and why (our extension of the interface's payloads).
 */

/** The service and organization confirmations go to, and the workstation they come from; `serviceUrl` is the identity the outbox keys them on. */
export interface ConfirmationAddress {
  serviceUrl: string;
  orgId: string;
  /** This workstation's stable id (workstation.ts); absent where none is kept (tests). */
  workstation?: string;
  /** Where each confirmed action is recorded first; the confirmation carries the entry's hash (absent in tests). */
  ledger?: ConfirmationLedger;
}

export type FirmwareOutcome =
  { success: true; version: string } | { success: false; version: string | null; error: string };
export type ConfigurationOutcome =
  { success: true; syncId: string } | { success: false; syncId: string; error: string };

/** When the outcome happened (applyTimeStamp), when a workstation saw it, and why it is said. */
export interface ConfirmationMoment {
  appliedAt: Date;
  observedAt: Date;
  reason: ConfirmationReason;
}

/** A moment seen as it happened: a job that read the device back. */
export function jobResultAt(at: Date): ConfirmationMoment {
  return { appliedAt: at, observedAt: at, reason: 'job-result' };
}

/** Where a confirmation goes, and of which device. */
function addressedTo(address: ConfirmationAddress, serialNumber: string) {
  return { serviceUrl: address.serviceUrl, orgId: address.orgId, serialNumber };
}

/** What both confirmations say besides what was deployed: the error, when it happened, and when, by which workstation and why it was seen. */
function outcomeFields(
  outcome: { success: true } | { success: false; error: string },
  address: ConfirmationAddress,
  moment: ConfirmationMoment,
) {
  return {
    error: outcome.success ? null : clipApplyError(outcome.error),
    applyTimeStamp: moment.appliedAt.toISOString(),
    observedAt: moment.observedAt.toISOString(),
    ...(address.workstation !== undefined ? { workstation: address.workstation } : {}),
    reason: moment.reason,
  };
}

/**
 * A device's error text can be any length; the service refuses one above its limit, and a refused
 * confirmation would never be recorded. The start says what went wrong; the clipped rest is marked.
 */
export function clipApplyError(error: string): string {
  if (error.length <= TEXT_LIMITS.applyError) return error;
  const marker = ' … (cut)';
  return error.slice(0, TEXT_LIMITS.applyError - marker.length) + marker;
}

export function firmwareConfirmation(
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: FirmwareOutcome,
  moment: ConfirmationMoment,
): NewConfirmation {
  return {
    kind: 'firmware',
    ...addressedTo(address, serialNumber),
    payload: {
      firmwareFileSuccessfullyDeployed: outcome.success,
      firmwareVersion: outcome.version,
      ...outcomeFields(outcome, address, moment),
    },
  };
}

export function configurationConfirmation(
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: ConfigurationOutcome,
  moment: ConfirmationMoment,
): NewConfirmation {
  return {
    kind: 'configuration',
    ...addressedTo(address, serialNumber),
    payload: {
      configurationFileSuccessfullyDeployed: outcome.success,
      syncId: outcome.syncId,
      ...outcomeFields(outcome, address, moment),
    },
  };
}

export async function confirmFirmware(
  outbox: Pick<Outbox, 'deliver'>,
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: FirmwareOutcome,
  at: Date,
  /** The image installed (or tried), for the ledger entry: a report names it from there. */
  image?: FirmwareImageFacts,
): Promise<'sent' | 'queued'> {
  const { delivered } = await outbox.deliver(
    await withLedgerHash(address.ledger, firmwareConfirmation(address, serialNumber, outcome, jobResultAt(at)), image),
  );
  return delivered ? 'sent' : 'queued';
}

export async function confirmConfiguration(
  outbox: Pick<Outbox, 'deliver'>,
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: ConfigurationOutcome,
  at: Date,
): Promise<'sent' | 'queued'> {
  const { delivered } = await outbox.deliver(
    await withLedgerHash(address.ledger, configurationConfirmation(address, serialNumber, outcome, jobResultAt(at))),
  );
  return delivered ? 'sent' : 'queued';
}

/**
 * How long an interrupted job waits for its device to be seen again before it is confirmed as a
 * failure without it (docs/decisions.md): long enough for a device carried back to the workshop
 * after a week away, short enough that the service does not wait on it for ever.
 */
export const INTERRUPTED_JOB_LIMIT_MS = 30 * 24 * 60 * 60_000;

/**
 * Intents of jobs whose process died wait for their device (reconcile.ts judges them from what it
 * runs). Those older than `limitMs` (by the last moment their job was known alive) are confirmed
 * as failures now, with that moment as their time, so a successful run afterwards supersedes them.
 */
export async function expireInterruptedJobs(
  journal: IntentJournal,
  outbox: Pick<Outbox, 'enqueue' | 'list'>,
  options: { now: Date; workstation?: string; limitMs?: number; ledger?: ConfirmationLedger },
): Promise<{ waiting: JobIntent[]; expired: JobIntent[] }> {
  const limit = options.limitMs ?? INTERRUPTED_JOB_LIMIT_MS;
  const waiting: JobIntent[] = [];
  const expired: JobIntent[] = [];
  const orphans = await journal.orphans();
  for (const intent of orphans) {
    if (options.now.getTime() - Date.parse(intent.updatedAt) < limit) {
      waiting.push(intent);
      continue;
    }
    const error = `Interrupted: Provisioner stopped during ${intent.phase} (started ${intent.startedAt}) and ${intent.serialNumber} was not seen again within ${Math.round(limit / 86_400_000)} days to tell whether it took.`;
    // A job killed after it recorded its outcome is confirmed under that entry (recorded-outcome.ts).
    await closeInterruptedJob(intent, { orphans, ledger: options.ledger, outbox }, () => ({
      success: false,
      confirmation: interruptedConfirmation(intent, { success: false, error }, options.now, options.workstation),
    }));
    await journal.clear(intent.jobId);
    expired.push(intent);
  }
  return { waiting, expired };
}

/**
 * The confirmation that closes an interrupted job: its outcome, timed at the last moment the job
 * was known alive (the device took it, or not, no later than that) and observed `observedAt`.
 * A configuration intent written before its file's syncId was known has nothing to confirm.
 */
export function interruptedConfirmation(
  intent: JobIntent,
  outcome: { success: true } | { success: false; error: string },
  observedAt: Date,
  workstation: string | undefined,
): NewConfirmation | null {
  const address: ConfirmationAddress = {
    serviceUrl: intent.serviceUrl,
    orgId: intent.orgId,
    ...(workstation !== undefined ? { workstation } : {}),
  };
  const moment: ConfirmationMoment = { appliedAt: new Date(intent.updatedAt), observedAt, reason: 'job-result' };
  if (intent.kind === 'firmware') {
    const firmware: FirmwareOutcome = outcome.success
      ? { success: true, version: intent.firmwareVersion ?? '' }
      : { success: false, version: intent.firmwareVersion, error: outcome.error };
    if (firmware.success && !firmware.version) return null;
    return firmwareConfirmation(address, intent.serialNumber, firmware, moment);
  }
  if (intent.syncId === null) return null;
  const configuration: ConfigurationOutcome = outcome.success
    ? { success: true, syncId: intent.syncId }
    : { success: false, syncId: intent.syncId, error: outcome.error };
  return configurationConfirmation(address, intent.serialNumber, configuration, moment);
}
