import { englishWords, type Words } from './domain-words';

/**
 * What the person at a station does about a failed device, as a code and its value: the core
 * decides it (main/features/station/failure-advice.ts), the screens and the CLI say it in the
 * reader's language from the station catalog (`station:advice.*`). The answer is "plug it in
 * again", "fix the configuration" or "set it aside", never a command to type.
 */
export type StationAdvice =
  /** The job ended, but a step was not done. */
  | { kind: 'stepNotDone' }
  /** Stopped with the station: an interrupted upload resumes at the next shift. */
  | { kind: 'nextShift' }
  /** The upload resumes where it stopped. */
  | { kind: 'resumes' }
  /** It does not run the parameters of its configuration: never into service. */
  | { kind: 'parametersDiffer' }
  /** Its configuration is incomplete or refused: the safety engineer completes it. */
  | { kind: 'completeConfiguration' }
  /** The device or the file is not trusted (a signature, a hash, a claim). */
  | { kind: 'notTrusted'; code: string }
  /** The service could not be reached or refused the key. */
  | { kind: 'checkService' }
  /** Anything else: the cable, then repair. */
  | { kind: 'retryOrRepair'; code: string | null }
  /** It runs a configuration changed after the shift was confirmed. */
  | { kind: 'shiftChanged' };

/** The advice for a failed job, from how it ended and its error code. */
export function stationAdviceFor(job: {
  errorCode: string | null | undefined;
  resumable: boolean;
  phase: string;
}): StationAdvice {
  if (job.phase === 'done') return { kind: 'stepNotDone' };
  if (job.phase === 'cancelled') return { kind: 'nextShift' };
  if (job.resumable) return { kind: 'resumes' };
  const code = job.errorCode ?? '';
  if (code === 'PARAMETERS_MISMATCH') return { kind: 'parametersDiffer' };
  if (/NOT_IN_CONFIGURATION|CONFIG_INCOMPLETE|VALIDATION|NOT_READY|CONFIGURATION/.test(code))
    return { kind: 'completeConfiguration' };
  if (/SIGN|HASH|SIGNATURE|KEY|CLAIM/.test(code)) return { kind: 'notTrusted', code };
  if (/AUTH|SERVICE|NETWORK|UNREACHABLE|OFFLINE/.test(code)) return { kind: 'checkService' };
  return { kind: 'retryOrRepair', code: code || null };
}

/** The advice in words: English by default, as the core's `action` sentence says it. */
export function stationAdviceText(advice: StationAdvice, words: Words = englishWords()): string {
  switch (advice.kind) {
    case 'notTrusted':
      return words.t('station:advice.notTrusted', { code: advice.code });
    case 'retryOrRepair':
      return advice.code === null
        ? words.t('station:advice.retryOrRepair')
        : words.t('station:advice.retryOrRepairCode', { code: advice.code });
    default:
      return words.t(`station:advice.${advice.kind}`);
  }
}
