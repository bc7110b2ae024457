import type { JobPhase, JobStep, JobView } from './jobs';

/**
 * The words and numbers a technician reads about a running job, the same in the CLI and the app.
 * Pure functions (in the manner of etcher's progress-status.ts): no I/O, no clocks.
 */

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
    case 'verifying-parameters':
      return 'Verifying the parameters the device runs';
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

/**
 * A transfer without an acknowledgement for this long is said to be silent: long enough that a slow
 * block (a device erasing flash) does not raise it, short enough that a pulled cable is seen at once.
 */
export const STALL_NOTICE_MS = 5000;

/** "No answer from the device for 5 s: check the cable"; empty while answers arrive. */
export function silenceText(job: Pick<JobView, 'phase' | 'silentSeconds'>): string {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return '';
  if (job.silentSeconds === undefined || job.silentSeconds === null) return '';
  const from = job.phase === 'uploading' ? 'the device' : 'the service';
  const check = job.phase === 'uploading' ? 'check the cable' : 'check the network';
  return `No answer from ${from} for ${durationText(job.silentSeconds)}: ${check}`;
}

/** Seconds left in the current transfer at the current rate; null when not measurable (or silent: the time left stops counting). */
export function secondsLeft(job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal' | 'rateBytesPerSecond' | 'silentSeconds'>): number | null {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return null;
  if (job.silentSeconds !== undefined && job.silentSeconds !== null) return null;
  if (!job.bytesTotal || !job.rateBytesPerSecond || job.rateBytesPerSecond <= 0) return null;
  return Math.max(0, (job.bytesTotal - job.bytesDone) / job.rateBytesPerSecond);
}
