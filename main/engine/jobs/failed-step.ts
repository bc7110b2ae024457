import type { JobEnvironment, StepResult } from './context';
import type { DeviceConnection } from './device-port';
import { failureText, type Failure } from './failure';
import type { IntentJournal, JobIntent } from './intent-journal';
import { reconcileJobDevice, rereadAfterFailure } from './job-contact';

/**
 * How a firmware or configuration job ends once it failed and its own failure is confirmed (or
 * there was nothing of its own to confirm): unless it was cancelled, the device is read once more
 * and what it reports is reconciled with the service; the result says what failed.
 */
export async function failedStepResult(
  env: Pick<JobEnvironment, 'reconciler' | 'now'>,
  session: DeviceConnection | undefined,
  failure: Failure,
  ended: Pick<StepResult, 'confirmation' | 'resumable'> & { notice: string | null },
): Promise<StepResult> {
  if (!failure.cancelled) await reconcileJobDevice(env, await rereadAfterFailure(session));
  return {
    phase: failure.cancelled ? 'cancelled' : 'failed',
    outcome: failure.cancelled ? 'cancelled' : 'failed',
    resultMessage: failureText(failure),
    errorCode: failure.code,
    failureReason: failure.reason,
    resumable: ended.resumable,
    confirmation: ended.confirmation,
    notice: ended.notice,
  };
}

/**
 * A job that failed after recording its intent confirms the failure at once (`confirm`, absent
 * when it knows too little to) and clears the intent. When the outbox cannot take it (disk full)
 * the intent stays and is judged at the next contact with the device, so the service still hears
 * of it. With no intent recorded the device was not touched: nothing to confirm.
 */
export async function confirmFailure(
  intents: Pick<IntentJournal, 'clear'>,
  intent: JobIntent | undefined,
  confirm: (() => Promise<'sent' | 'queued'>) | undefined,
): Promise<'sent' | 'queued' | 'none'> {
  let confirmation: 'sent' | 'queued' | 'none' = 'none';
  if (!intent || !confirm) return confirmation;
  try {
    confirmation = await confirm();
    await intents.clear(intent.jobId);
  } catch {
    // Left in the intent journal, as above.
  }
  return confirmation;
}
