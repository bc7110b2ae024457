import type { JobView } from '../../domain/jobs';
import { englishWords, type Words } from './words';

/**
 * A cancelled job in one sentence of the screen's words (issue 32): where it stopped and what Retry
 * does, "Cancelled at 37 %. Retry resumes from there.", instead of the CLI's step line, its advice
 * and its code. A firmware upload stopped part way is kept by the device, so Retry resumes it; any
 * other step starts again from the beginning.
 */
export function cancelledSentence(
  job: Pick<JobView, 'phase' | 'step' | 'bytesDone' | 'bytesTotal' | 'steps'>,
  words: Words = englishWords(),
): string {
  if (job.phase !== 'cancelled') return '';
  if (job.steps.some((s) => s.reason === 'cancelled before it started'))
    return words.t('workbench:cancelled.beforeStart');
  const { bytesDone, bytesTotal } = job;
  if (job.step === 'firmware' && bytesTotal !== null && bytesTotal > 0 && bytesDone > 0 && bytesDone < bytesTotal) {
    return words.t('workbench:cancelled.partWay', { percent: Math.floor((bytesDone / bytesTotal) * 100) / 100 });
  }
  return words.t('workbench:cancelled.again');
}
