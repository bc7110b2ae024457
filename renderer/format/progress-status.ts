import { FINISHED_PHASES, type JobAction, type JobView } from '../../domain/jobs';
import { durationText, jobFailureText, phaseText, rateText, secondsLeft, silenceText } from '../../domain/job-text';
import { codingDetailText, codingText, parseCodingText } from '../../domain/files/content-coding';
import { englishWords, listText, type Words } from './words';

export { phaseText, secondsLeft };

/**
 * Pure functions from a job's state to the text a technician reads beside its progress bar (in the
 * manner of etcher's progress-status.ts). Every text has a bounded length so a row never reflows.
 */

export type ProgressTone = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

export interface ProgressStatus {
  /** "Uploading firmware", "Done", "Failed: device did not answer". */
  label: string;
  /** 0..100 for the bar; null: indeterminate (nothing to measure in this phase). */
  percent: number | null;
  percentText: string;
  /** How a firmware upload travels, "compressed, 1.6× faster"; empty for the image's own bytes and other phases. */
  codingText: string;
  /** The exact terms behind codingText (the codec, bytes per byte on the cable), for its tooltip. */
  codingDetail: string;
  rateText: string;
  timeLeftText: string;
  tone: ProgressTone;
}

export function actionText(action: JobAction, words: Words = englishWords()): string {
  switch (action) {
    case 'firmware':
      return words.t('workbench:action.firmware');
    case 'configuration':
      return words.t('workbench:action.configuration');
    case 'both':
      return words.t('workbench:action.bothLong');
  }
}

export function isFinished(job: Pick<JobView, 'phase'>): boolean {
  return FINISHED_PHASES.includes(job.phase);
}

/** The share of the job done, in percent. Transfers measure bytes; the other phases sit at fixed points. */
export function jobPercent(
  job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal' | 'action' | 'step'>,
): number | null {
  if (job.phase === 'done') return 100;
  if (job.phase === 'failed' || job.phase === 'cancelled') return null;
  const stepShare = stepPercent(job);
  if (stepShare === null) return null;
  if (job.action !== 'both') return stepShare;
  // Firmware is the long half of "both": give it most of the bar.
  return job.step === 'firmware' ? stepShare * 0.8 : 80 + stepShare * 0.2;
}

function stepPercent(job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal'>): number | null {
  const transfer = job.bytesTotal && job.bytesTotal > 0 ? Math.min(1, job.bytesDone / job.bytesTotal) : null;
  switch (job.phase) {
    case 'queued':
      return 0;
    case 'resolving':
      return 1;
    case 'downloading':
      return transfer === null ? 2 : 2 + transfer * 8;
    case 'verifying':
      return 10;
    case 'uploading':
      return transfer === null ? 10 : 10 + transfer * 80;
    case 'applying':
      return 91;
    case 'rebooting':
      return 94;
    case 'checking':
      return 97;
    case 'verifying-parameters':
      return 98;
    case 'confirming':
      return 99;
    default:
      return null;
  }
}

/**
 * Why a job failed: in the reader's words when the core sent its reason as codes and values
 * (jobFailureText: where, the cause, the figures), else the core's own English line.
 */
function failedMessage(job: JobView, words: Words): string {
  if (!job.failureReason) return job.resultMessage ?? '';
  const code = job.steps.find((step) => step.status === 'failed')?.errorCode ?? null;
  return jobFailureText(job.failureReason, code, words) ?? job.resultMessage ?? '';
}

export function progressStatus(job: JobView | null, words: Words = englishWords()): ProgressStatus {
  if (!job)
    return {
      label: words.t('workbench:progress.idle'),
      percent: null,
      percentText: '',
      codingText: '',
      codingDetail: '',
      rateText: '',
      timeLeftText: '',
      tone: 'idle',
    };
  const percent = jobPercent(job);
  const transferring = job.phase === 'uploading' || job.phase === 'downloading';
  const left = secondsLeft(job);
  // A silent link replaces the phase's words: the technician must see the cable, not a frozen bar.
  const silence = silenceText(job, words);
  return {
    label:
      job.phase === 'failed' && job.resultMessage
        ? words.t('workbench:progress.failed', { message: failedMessage(job, words) })
        : silence || (doneLabel(job, words) ?? phaseText(job.phase, job.step, {}, words)),
    percent,
    percentText:
      percent === null
        ? ''
        : new Intl.NumberFormat(words.locale, { style: 'percent', maximumFractionDigits: 0 }).format(
            Math.floor(percent) / 100,
          ),
    ...codingTexts(job, words),
    rateText: transferring && !silence ? rateText(job.rateBytesPerSecond) : '',
    timeLeftText: left === null ? '' : words.t('workbench:progress.timeLeft', { duration: durationText(left) }),
    tone:
      job.phase === 'done'
        ? 'done'
        : job.phase === 'failed'
          ? 'failed'
          : job.phase === 'cancelled'
            ? 'cancelled'
            : 'running',
  };
}

function doneLabel(job: JobView, words: Words): string | null {
  if (job.phase !== 'done') return null;
  const firmware = Boolean(job.firmwareVersion && job.action !== 'configuration');
  const configuration = Boolean(job.syncId && job.action !== 'firmware');
  const result = firmware && configuration ? 'both' : firmware ? 'firmware' : configuration ? 'configuration' : 'none';
  return words.t('workbench:progress.done', {
    result,
    version: job.firmwareVersion ?? '',
    queued: job.confirmation === 'queued' ? 'yes' : 'no',
  });
}

/** The workbench's jobs in one line, for its toolbar while they run: "3 running, 12 done, 1 failed". */
export function workbenchSummary(jobs: readonly JobView[], words: Words = englishWords()): string {
  if (jobs.length === 0) return words.t('workbench:summary.noJobs');
  const count = (test: (j: JobView) => boolean) => jobs.filter(test).length;
  const running = count((j) => !isFinished(j));
  const done = count((j) => j.phase === 'done');
  const failed = count((j) => j.phase === 'failed');
  const cancelled = count((j) => j.phase === 'cancelled');
  // A count of none is not said.
  const parts = [
    running > 0 ? words.t('workbench:summary.running', { count: running }) : '',
    done > 0 ? words.t('workbench:summary.done', { count: done }) : '',
    failed > 0 ? words.t('workbench:summary.failed', { count: failed }) : '',
    cancelled > 0 ? words.t('workbench:summary.cancelled', { count: cancelled }) : '',
  ];
  return listText(
    words,
    parts.filter((part) => part !== ''),
  );
}

/** How a running upload travels and the exact terms behind it, in the reader's words; a text the core did not make so is shown as it came. */
function codingTexts(job: JobView, words: Words): Pick<ProgressStatus, 'codingText' | 'codingDetail'> {
  if (job.phase !== 'uploading' || !job.transferCoding) return { codingText: '', codingDetail: '' };
  const terms = job.transferCodingTerms ?? parseCodingText(job.transferCoding);
  if (!terms) return { codingText: job.transferCoding, codingDetail: job.transferCoding };
  return { codingText: codingText(terms, words), codingDetail: codingDetailText(terms, words) };
}
