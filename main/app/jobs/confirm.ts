import type { Outbox } from '../outbox/outbox';
import type { IntentJournal, JobIntent } from './intent-journal';

/**
 * Confirmations go to the service only through the outbox: written durably first, then sent, and
 * replayed until the service has them. A job's result is "sent" when the service acknowledged it
 * at once, "queued" when it waits (service unreachable); either way it is not lost.
 */

/** The service and organization confirmations go to; `serviceUrl` is the identity the outbox keys them on. */
export interface ConfirmationAddress {
  serviceUrl: string;
  orgId: string;
}

export type FirmwareOutcome = { success: true; version: string } | { success: false; version: string | null; error: string };
export type ConfigurationOutcome = { success: true; syncId: string } | { success: false; syncId: string; error: string };

export async function confirmFirmware(
  outbox: Pick<Outbox, 'deliver'>,
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: FirmwareOutcome,
  at: Date,
): Promise<'sent' | 'queued'> {
  const { delivered } = await outbox.deliver({
    kind: 'firmware',
    serviceUrl: address.serviceUrl,
    orgId: address.orgId,
    serialNumber,
    payload: {
      firmwareFileSuccessfullyDeployed: outcome.success,
      error: outcome.success ? null : outcome.error,
      firmwareVersion: outcome.version,
      applyTimeStamp: at.toISOString(),
    },
  });
  return delivered ? 'sent' : 'queued';
}

export async function confirmConfiguration(
  outbox: Pick<Outbox, 'deliver'>,
  address: ConfirmationAddress,
  serialNumber: string,
  outcome: ConfigurationOutcome,
  at: Date,
): Promise<'sent' | 'queued'> {
  const { delivered } = await outbox.deliver({
    kind: 'configuration',
    serviceUrl: address.serviceUrl,
    orgId: address.orgId,
    serialNumber,
    payload: {
      configurationFileSuccessfullyDeployed: outcome.success,
      error: outcome.success ? null : outcome.error,
      syncId: outcome.syncId,
      applyTimeStamp: at.toISOString(),
    },
  });
  return delivered ? 'sent' : 'queued';
}

/**
 * Turns the intents of jobs whose process died into failure confirmations. Their time is the last
 * moment the job was known alive, so a successful run afterwards (a later time) supersedes them.
 */
export async function confirmInterruptedJobs(journal: IntentJournal, outbox: Pick<Outbox, 'enqueue'>): Promise<JobIntent[]> {
  const orphans = await journal.orphans();
  for (const intent of orphans) {
    const error = `Interrupted: Provisioner stopped during ${intent.phase} (started ${intent.startedAt}) before the result could be checked.`;
    const base = { serviceUrl: intent.serviceUrl, orgId: intent.orgId, serialNumber: intent.serialNumber };
    if (intent.kind === 'firmware') {
      await outbox.enqueue({
        ...base,
        kind: 'firmware',
        payload: { firmwareFileSuccessfullyDeployed: false, error, firmwareVersion: intent.firmwareVersion, applyTimeStamp: intent.updatedAt },
      });
    } else if (intent.syncId !== null) {
      await outbox.enqueue({
        ...base,
        kind: 'configuration',
        payload: { configurationFileSuccessfullyDeployed: false, error, syncId: intent.syncId, applyTimeStamp: intent.updatedAt },
      });
    }
    await journal.clear(intent.jobId);
  }
  return orphans;
}
