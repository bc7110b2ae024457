import { FINISHED_PHASES, type JobAction, type JobView } from '../../domain/jobs';
import { durationText, phaseText, rateText, secondsLeft, silenceText } from '../../domain/job-text';
import { codingDetail } from '../../domain/files/content-coding';

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

export function actionText(action: JobAction): string {
  switch (action) {
    case 'firmware':
      return 'Update firmware';
    case 'configuration':
      return 'Apply configuration';
    case 'both':
      return 'Firmware and configuration';
  }
}

export function isFinished(job: Pick<JobView, 'phase'>): boolean {
  return FINISHED_PHASES.includes(job.phase);
}

/** The share of the job done, in percent. Transfers measure bytes; the other phases sit at fixed points. */
export function jobPercent(job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal' | 'action' | 'step'>): number | null {
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

export function progressStatus(job: JobView | null): ProgressStatus {
  if (!job) return { label: 'Idle', percent: null, percentText: '', codingText: '', codingDetail: '', rateText: '', timeLeftText: '', tone: 'idle' };
  const percent = jobPercent(job);
  const transferring = job.phase === 'uploading' || job.phase === 'downloading';
  const left = secondsLeft(job);
  // A silent link replaces the phase's words: the technician must see the cable, not a frozen bar.
  const silence = silenceText(job);
  return {
    label: job.phase === 'failed' && job.resultMessage ? `Failed: ${job.resultMessage}` : silence || (doneLabel(job) ?? phaseText(job.phase, job.step)),
    percent,
    percentText: percent === null ? '' : `${Math.floor(percent)}%`,
    codingText: job.phase === 'uploading' && job.transferCoding ? job.transferCoding : '',
    codingDetail: job.phase === 'uploading' && job.transferCoding ? codingDetail(job.transferCoding) || job.transferCoding : '',
    rateText: transferring && !silence ? rateText(job.rateBytesPerSecond) : '',
    timeLeftText: left === null ? '' : `${durationText(left)} left`,
    tone: job.phase === 'done' ? 'done' : job.phase === 'failed' ? 'failed' : job.phase === 'cancelled' ? 'cancelled' : 'running',
  };
}

function doneLabel(job: JobView): string | null {
  if (job.phase !== 'done') return null;
  const parts: string[] = [];
  if (job.firmwareVersion && job.action !== 'configuration') parts.push(`firmware ${job.firmwareVersion}`);
  if (job.syncId && job.action !== 'firmware') parts.push('configuration applied');
  const queued = job.confirmation === 'queued' ? ' (confirmation waiting in outbox)' : '';
  return parts.length > 0 ? `Done: ${parts.join(', ')}${queued}` : `Done${queued}`;
}

/** The workbench's jobs in one line, for its toolbar while they run: "3 running, 12 done, 1 failed". */
export function workbenchSummary(jobs: readonly JobView[]): string {
  if (jobs.length === 0) return 'No jobs yet';
  const count = (test: (j: JobView) => boolean) => jobs.filter(test).length;
  const parts = [
    [count((j) => !isFinished(j)), 'running'],
    [count((j) => j.phase === 'done'), 'done'],
    [count((j) => j.phase === 'failed'), 'failed'],
    [count((j) => j.phase === 'cancelled'), 'cancelled'],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n} ${word}`)
    .join(', ');
}
