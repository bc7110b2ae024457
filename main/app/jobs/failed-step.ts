import type { JobEnvironment, StepResult } from './context';
import type { DeviceConnection } from './device-port';
import { failureText, type Failure } from './failure';
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
    resumable: ended.resumable,
    confirmation: ended.confirmation,
    notice: ended.notice,
  };
}
