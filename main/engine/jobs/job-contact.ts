import type { JobEnvironment } from './context';
import type { DeviceConnection, DeviceIdentity } from './device-port';
import { observationOf } from './reconcile';

/**
 * A job's reads of its device go through the reconciler like every other read (reconcile.ts): the
 * first settles the jobs an earlier process left unfinished on it, before this one changes it;
 * the last (the device found up to date, or read again after a failure) confirms what it runs
 * when the service has recorded otherwise. A job that applied confirms its own result instead.
 */

/** How long a failed job may spend reading its device once more: it may have gone away. */
const REREAD_AFTER_FAILURE_MS = 3_000;

export async function settleInterruptedJobs(
  env: Pick<JobEnvironment, 'reconciler' | 'now'>,
  identity: DeviceIdentity,
): Promise<void> {
  // Never the job's undoing: what cannot be settled now waits in the journal for the next contact.
  await env.reconciler?.settleInterrupted([observationOf(identity, env.now())]).catch(() => undefined);
}

/** Confirms what the device reports, if the service recorded otherwise; says how that went. */
export async function reconcileJobDevice(
  env: Pick<JobEnvironment, 'reconciler' | 'now'>,
  identity: DeviceIdentity | undefined,
): Promise<'sent' | 'queued' | 'none'> {
  if (!env.reconciler || !identity) return 'none';
  try {
    const [outcome] = await env.reconciler.reconcile([observationOf(identity, env.now())]);
    return outcome?.confirmation ?? 'none';
  } catch {
    return 'none';
  }
}

/** The device as it is after a failed job, if it still answers at once. */
export async function rereadAfterFailure(session: DeviceConnection | undefined): Promise<DeviceIdentity | undefined> {
  if (!session) return undefined;
  try {
    return await session.identify(AbortSignal.timeout(REREAD_AFTER_FAILURE_MS));
  } catch {
    return undefined;
  }
}
