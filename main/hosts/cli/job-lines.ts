import type { JobSnapshot } from '../../../domain/jobs';
import {
  batchSummary,
  finishedText,
  rateText,
  runningText,
  secondsLeft,
  transferPercent,
} from '../../../domain/job-progress-text';
import { durationText, jobFailureText, phaseText, silenceText } from '../../../domain/job-text';
import { headlineSteps, stepMark, stepName, stepStatusLabel, type JobStepResult } from '../../../domain/job-steps';
import { errorAdvice, errorTexts } from '../../../domain/job-errors';
import { codingText, parseCodingText } from '../../../domain/files/content-coding';
import { localeFormat, SOURCE_LANGUAGE, type Translator } from '../../../domain/i18n/index.js';

/**
 * The lines the CLI prints about jobs, in the run's language. English is the source: the jobs
 * core's own words (domain/job-progress-text.ts), which name every detail the core knows. In
 * another language a line is made from the job's fields (phase, outcome, versions, syncId,
 * confirmation, error code) through the `cli`, `domain` and `errors` catalogs, one message per
 * line with placeholders; data (serial numbers, versions, syncIds, codes) is never translated.
 * `--json` never goes through here: it carries the job as it is.
 */

const DASH = ' — ';

function isSource(translator: Translator): boolean {
  return translator.language === SOURCE_LANGUAGE;
}

/** "Firmware 2.4.1 wird übertragen — 43 % — 10.9 kB/s — noch 1 min 12 s". */
export function runningLine(job: JobSnapshot, translator: Translator): string {
  if (isSource(translator)) return runningText(job);
  const { t } = translator;
  const parts = [
    phaseText(job.phase, job.step, { version: job.firmwareVersion, serialNumber: job.serialNumber }, translator),
  ];
  if (job.phase === 'uploading' || job.phase === 'downloading') {
    const percent = transferPercent(job);
    if (percent !== null) parts.push(localeFormat(translator).percent(Math.floor(percent) / 100));
    const silence = silenceText(job, translator);
    if (silence) return [...parts, silence].join(DASH);
    const rate = rateText(job.rateBytesPerSecond);
    if (rate) parts.push(rate);
    if (job.phase === 'uploading' && job.transferCoding) parts.push(transferCodingText(job, translator));
    const left = secondsLeft(job);
    if (left !== null)
      parts.push(
        left < 1 ? t('cli:progress.underOneSecondLeft') : t('cli:progress.timeLeft', { duration: durationText(left) }),
      );
  }
  if (job.phase === 'uploading' && job.resumedFrom && job.bytesTotal) {
    parts.push(
      t('cli:progress.resumedAt', {
        percent: localeFormat(translator).percent(Math.floor((job.resumedFrom / job.bytesTotal) * 100) / 100),
      }),
    );
  }
  return parts.join(DASH);
}

/** One headline step of a line: "Firmware-Aktualisierung: Erledigt ✓", with why it failed or was skipped. */
function stepLine(step: JobStepResult, translator: Translator): string {
  const name = stepName(step, translator);
  const status = stepStatusLabel(step.status, translator);
  const reason = step.errorCode ? errorTexts(step.errorCode, translator)?.what : undefined;
  if (reason && step.errorCode)
    return translator.t('cli:final.stepWithReason', { step: name, status, reason, code: step.errorCode });
  return translator.t('cli:final.step', { step: name, status, mark: stepMark(step.status) });
}

/**
 * The line a finished job ends with: "Firmware 1.1.0 installiert (vorher 1.0.0); an den Dienst
 * bestätigt". A job of two steps, or one with a step skipped, says each step.
 */
export function finishedLine(job: JobSnapshot, translator: Translator): string {
  if (isSource(translator)) return finishedText(job);
  const { t } = translator;
  const confirmation = job.confirmation;
  if (job.phase === 'cancelled') return t('cli:final.cancelled', { confirmation });
  if (job.outcome === 'partial' || job.action === 'both')
    return headlineSteps(job.steps)
      .map((step) => stepLine(step, translator))
      .join(' · ');
  if (job.phase === 'failed') {
    const code = job.errorCode ?? 'INTERNAL';
    // The core's reason (where, the cause, the figures) or the code's catalogue text, in the run's language.
    const reason = jobFailureText(job.failureReason, code, translator) ?? job.resultMessage ?? code;
    return t('cli:final.failed', { reason, code, confirmation });
  }
  const upToDate = job.outcome === 'up-to-date';
  if (job.action === 'firmware') {
    const version = job.firmwareVersion ?? '?';
    return upToDate
      ? t('cli:final.firmwareUpToDate', { version, confirmation })
      : t('cli:final.firmwareInstalled', { version, previous: job.previousFirmwareVersion ?? '?', confirmation });
  }
  const syncId = job.syncId ?? '?';
  return upToDate
    ? t('cli:final.configurationUpToDate', { syncId, confirmation })
    : t('cli:final.configurationApplied', { syncId, confirmation });
}

/** A batch in one line: "12 erledigt, 1 fehlgeschlagen, 2 nicht begonnen". */
export function summaryLine(jobs: readonly JobSnapshot[], notStarted: number, translator: Translator): string {
  if (isSource(translator)) return batchSummary(jobs) + (notStarted > 0 ? `, ${notStarted} not started` : '');
  const count = (test: (job: JobSnapshot) => boolean) => jobs.filter(test).length;
  return translator.t('cli:jobs.summary', {
    done: count((job) => job.phase === 'done'),
    failed: count((job) => job.phase === 'failed'),
    cancelled: count((job) => job.phase === 'cancelled'),
    notStarted,
  });
}

/** What to do about a step that did not do its work, from the errors catalog, with the code for support. */
export function adviceLine(device: string, step: JobStepResult, code: string, translator: Translator): string | null {
  const advice = errorAdvice(code, translator);
  if (advice === null) return null;
  // English keeps the step's own name (`configuration`), as scripts and the tests read it.
  const name = isSource(translator) ? step.step : stepName(step, translator);
  return translator.t('cli:jobs.advice', { device, step: name, advice, code });
}

/** How the upload travels, in the run's language; a text the core did not make so is shown as it came. */
function transferCodingText(
  job: Pick<JobSnapshot, 'transferCoding' | 'transferCodingTerms'>,
  words: Translator,
): string {
  const english = job.transferCoding ?? '';
  const terms = job.transferCodingTerms ?? parseCodingText(english);
  return terms ? codingText(terms, words) : english;
}
