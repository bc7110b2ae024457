import type { JobSnapshot } from '../../engine/jobs/job-state';

/**
 * What the person at the station does about a failed device, in one sentence. The job's own
 * message says what went wrong; this says what to do here, where the answer is "plug it in again",
 * "fix the configuration" or "set it aside", not a command to type.
 */
export function stationAdvice(job: Pick<JobSnapshot, 'errorCode' | 'resumable' | 'phase'>): string {
  if (job.phase === 'done') return 'Set it aside: a step was not done (see why); plug it in again once that is fixed.';
  if (job.phase === 'cancelled') return 'Plug it in again at the next shift: an interrupted upload resumes there.';
  if (job.resumable) return 'Plug it in again: the upload resumes where it stopped.';
  const code = job.errorCode ?? '';
  if (code === 'PARAMETERS_MISMATCH') return PARAMETERS_DIFFER_ADVICE;
  if (/NOT_IN_CONFIGURATION|CONFIG_INCOMPLETE|VALIDATION|NOT_READY|CONFIGURATION/.test(code)) {
    return 'Set it aside and ask the safety engineer to complete its configuration; then plug it in again.';
  }
  if (/SIGN|HASH|SIGNATURE|KEY|CLAIM/.test(code))
    return `Set it aside for the engineer (code ${code}): the device or the file is not trusted.`;
  if (/AUTH|SERVICE|NETWORK|UNREACHABLE|OFFLINE/.test(code))
    return 'Check the connection to the service, then unplug it and plug it in again.';
  return `Unplug it, check the cable and plug it in again to retry; if it fails again, set it aside for repair${code ? ` (code ${code})` : ''}.`;
}

/** A device that does not run the parameters of its configuration (issue 26): never into service. */
export const PARAMETERS_DIFFER_ADVICE =
  'Keep it apart: it does not run the parameters of its configuration and must not go into service. Put it on the repair shelf with a note for the safety engineer, who applies the configuration again at the Workbench and replaces the device if a parameter still differs.';

/** A device that runs a configuration changed since the shift's confirmation: no one confirmed what it runs. */
export const SHIFT_DEPARTURE_ADVICE =
  'Keep it apart: its configuration changed after the shift was confirmed. Stop the station and start a new shift, confirming the new checksum; then plug it in again.';
