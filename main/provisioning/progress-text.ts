import type { JobPhase, JobSnapshot, JobStep } from './job-state';

/**
 * Pure functions from a job's state to the text a technician reads (in the manner of etcher's
 * progress-status.ts): the CLI prints them, the UI may too. No I/O, no clocks.
 *
 *   Uploading firmware 2.4.1 — 43% — 10.9 kB/s — 1 min 12 s left
 */

const DASH = ' — ';

/** 1 kB = 1000 B, as line rates are counted (115200 baud moves 11.5 kB/s). */
export function bytesText(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1_000_000) return `${trim(bytes / 1000)} kB`;
  return `${trim(bytes / 1_000_000)} MB`;
}

export function rateText(bytesPerSecond: number | null): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '';
  return `${bytesText(bytesPerSecond)}/s`;
}

/** 3 s, 45 s, 1 min 12 s, 2 h 5 min. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${rest} s`;
  }
  const minutes = Math.round((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** "Uploading firmware 2.4.1", "Waiting for EPC000101 to restart". */
export function phaseText(phase: JobPhase, step: JobStep, what: { version?: string | null; serialNumber?: string | null } = {}): string {
  const noun = step === 'firmware' ? (what.version ? `firmware ${what.version}` : 'firmware') : 'configuration';
  switch (phase) {
    case 'queued':
      return 'Waiting for a free slot';
    case 'resolving':
      return step === 'firmware' ? 'Looking up the latest firmware' : 'Looking up the configuration file';
    case 'downloading':
      return `Downloading ${noun}`;
    case 'verifying':
      return `Checking ${noun}`;
    case 'uploading':
      return `Uploading ${noun}`;
    case 'applying':
      return `Applying ${noun}`;
    case 'rebooting':
      return 'Waiting for the device to restart';
    case 'checking':
      return `Reading back the ${step === 'firmware' ? 'firmware version' : 'configuration'}`;
    case 'confirming':
      return 'Confirming to the service';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** Share of the current transfer in percent (0..100), or null outside transfers. */
export function transferPercent(job: Pick<JobSnapshot, 'bytesDone' | 'bytesTotal'>): number | null {
  if (job.bytesTotal === null || job.bytesTotal <= 0) return null;
  return Math.min(100, Math.max(0, (job.bytesDone / job.bytesTotal) * 100));
}

export function secondsLeft(job: Pick<JobSnapshot, 'phase' | 'bytesDone' | 'bytesTotal' | 'rateBytesPerSecond'>): number | null {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return null;
  if (!job.bytesTotal || !job.rateBytesPerSecond || job.rateBytesPerSecond <= 0) return null;
  return Math.max(0, (job.bytesTotal - job.bytesDone) / job.rateBytesPerSecond);
}

/** One line for a running job: "Uploading firmware 2.4.1 — 43% — 10.9 kB/s — 1 min 12 s left". */
export function runningText(job: JobSnapshot): string {
  const parts = [phaseText(job.phase, job.step, { version: job.firmwareVersion, serialNumber: job.serialNumber })];
  if (job.phase === 'uploading' || job.phase === 'downloading') {
    const percent = transferPercent(job);
    if (percent !== null) parts.push(`${Math.floor(percent)}%`);
    const rate = rateText(job.rateBytesPerSecond);
    if (rate) parts.push(rate);
    const left = secondsLeft(job);
    if (left !== null) parts.push(left < 1 ? 'under 1 s left' : `${durationText(left)} left`);
  }
  if (job.phase === 'uploading' && job.resumedFrom && job.bytesTotal) parts.push(`resumed at ${Math.floor((job.resumedFrom / job.bytesTotal) * 100)}%`);
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

/** One line for a finished job; for failures the job's own one-line error. */
export function finishedText(job: JobSnapshot): string {
  if (job.phase === 'failed' || job.phase === 'cancelled') {
    const confirmation = confirmationWords(job.confirmation);
    return `${job.resultMessage ?? (job.phase === 'failed' ? 'failed' : 'cancelled')}${confirmation ? ` (failure ${confirmation})` : ''}`;
  }
  const result = job.resultMessage ?? 'done';
  const confirmation = confirmationWords(job.confirmation);
  return confirmation ? `${result}; ${confirmation}` : result;
}

export function jobText(job: JobSnapshot): string {
  return job.phase === 'done' || job.phase === 'failed' || job.phase === 'cancelled' ? finishedText(job) : runningText(job);
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
