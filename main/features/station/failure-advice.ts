import type { JobSnapshot } from '../../engine/jobs/job-state';
import { stationAdviceFor, stationAdviceText } from '../../../domain/station-advice';

/**
 * What the person at the station does about a failed device, in one English sentence (the view's
 * and the event's `action`, for --json and logs). The job's own message says what went wrong; this
 * says what to do here. The same advice as a code (stationAdviceFor) is what screens and the CLI say
 * in the reader's language (domain/station-advice.ts).
 */
export function stationAdvice(job: Pick<JobSnapshot, 'errorCode' | 'resumable' | 'phase'>): string {
  return stationAdviceText(stationAdviceFor(job));
}

/** A device that does not run the parameters of its configuration (issue 26): never into service. */
export const PARAMETERS_DIFFER_ADVICE = stationAdviceText({ kind: 'parametersDiffer' });

/** A device that runs a configuration changed since the shift's confirmation: no one confirmed what it runs. */
export const SHIFT_DEPARTURE_ADVICE = stationAdviceText({ kind: 'shiftChanged' });
