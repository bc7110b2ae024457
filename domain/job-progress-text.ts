import { bytesText, durationText, phaseText, rateText, secondsLeft, silenceText, STALL_NOTICE_MS } from './job-text';
import type { JobSnapshot } from './jobs';
import { stepsLine } from './job-steps';

export { bytesText, durationText, phaseText, rateText, secondsLeft, silenceText, STALL_NOTICE_MS };

/**
 * Pure functions from a job's state to the text a technician reads (in the manner of etcher's
 * progress-status.ts): the CLI prints them, the UI may too. No I/O, no clocks.
 *
 *   Uploading firmware 2.4.1 — 43% — 10.9 kB/s — 1 min 12 s left
 */

const DASH = ' — ';

/** Share of the current transfer in percent (0..100), or null outside transfers. */
export function transferPercent(job: Pick<JobSnapshot, 'bytesDone' | 'bytesTotal'>): number | null {
  if (job.bytesTotal === null || job.bytesTotal <= 0) return null;
  return Math.min(100, Math.max(0, (job.bytesDone / job.bytesTotal) * 100));
}

/** One line for a running job: "Uploading firmware 2.4.1 — 43% — 10.9 kB/s — 1 min 12 s left". */
export function runningText(job: JobSnapshot): string {
  const parts = [phaseText(job.phase, job.step, { version: job.firmwareVersion, serialNumber: job.serialNumber })];
  if (job.phase === 'uploading' || job.phase === 'downloading') {
    const percent = transferPercent(job);
    if (percent !== null) parts.push(`${Math.floor(percent)}%`);
    // A silent link has no rate and no time left: saying "4 s left" for a minute misleads.
    const silence = silenceText(job);
    if (silence) return [...parts, silence].join(DASH);
    const rate = rateText(job.rateBytesPerSecond);
    if (rate) parts.push(rate);
    if (job.phase === 'uploading' && job.transferCoding) parts.push(job.transferCoding);
    const left = secondsLeft(job);
    if (left !== null) parts.push(left < 1 ? 'under 1 s left' : `${durationText(left)} left`);
  }
  if (job.phase === 'uploading' && job.resumedFrom && job.bytesTotal)
    parts.push(`resumed at ${Math.floor((job.resumedFrom / job.bytesTotal) * 100)}%`);
  return parts.join(DASH);
}

/** What happened to a step's confirmation, in the words of a result line. */
export function confirmationWords(confirmation: JobSnapshot['confirmation']): string {
  switch (confirmation) {
    case 'sent':
      return 'confirmed to the service';
    case 'queued':
      return 'confirmation waiting in the outbox';
    case 'none':
      return '';
  }
}

/**
 * One line for a finished job; for failures the job's own one-line error. A job of two steps, or
 * one with a step skipped, says each step's outcome:
 * "firmware 1.1.0 installed (was 1.0.0) ✓ · configuration not applied: EPC000101 is in no configuration: add it in Configurations".
 */
export function finishedText(job: JobSnapshot): string {
  if (job.outcome === 'partial' || (job.action === 'both' && job.phase !== 'cancelled')) return stepsLine(job.steps);
  if (job.phase === 'failed' || job.phase === 'cancelled') {
    const confirmation = confirmationWords(job.confirmation);
    return `${job.resultMessage ?? (job.phase === 'failed' ? 'failed' : 'cancelled')}${confirmation ? ` (failure ${confirmation})` : ''}`;
  }
  const result = job.resultMessage ?? 'done';
  const confirmation = confirmationWords(job.confirmation);
  return confirmation ? `${result}; ${confirmation}` : result;
}

export function jobText(job: JobSnapshot): string {
  return job.phase === 'done' || job.phase === 'failed' || job.phase === 'cancelled'
    ? finishedText(job)
    : runningText(job);
}

/** Which device a line is about: the serial number once known, else how it was targeted. */
export function deviceLabel(job: Pick<JobSnapshot, 'serialNumber' | 'linkId'>): string {
  return job.serialNumber ?? job.linkId;
}

/** A whole batch in one line: "2 running, 12 done, 1 failed". */
export function batchSummary(jobs: readonly JobSnapshot[]): string {
  if (jobs.length === 0) return 'no jobs';
  const count = (test: (j: JobSnapshot) => boolean) => jobs.filter(test).length;
  const parts: Array<[number, string]> = [
    [count((j) => j.phase === 'queued'), 'waiting'],
    [count((j) => !['queued', 'done', 'failed', 'cancelled'].includes(j.phase)), 'running'],
    [count((j) => j.phase === 'done'), 'done'],
    [count((j) => j.phase === 'failed'), 'failed'],
    [count((j) => j.phase === 'cancelled'), 'cancelled'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n} ${word}`)
    .join(', ');
}
