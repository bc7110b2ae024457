import { englishWords, type Words } from './domain-words';
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

/** "Uploading firmware 2.4.1", "Firmware 2.4.1 wird übertragen", "Waiting for the device to restart". */
export function phaseText(phase: JobPhase, step: JobStep, what: { version?: string | null; serialNumber?: string | null } = {}, words: Words = englishWords()): string {
  // What a transfer phase names: firmware with its version when known, firmware, or the configuration.
  const noun = step === 'firmware' ? (what.version ? 'firmwareVersion' : 'firmware') : 'configuration';
  switch (phase) {
    case 'downloading':
    case 'verifying':
    case 'uploading':
    case 'applying':
      return words.t(`domain:phase.${phase}`, { what: noun, version: what.version ?? '' });
    case 'resolving':
    case 'checking':
      return words.t(`domain:phase.${phase}`, { step });
    default:
      return words.t(`domain:phase.${phase}`);
  }
}

/**
 * A transfer without an acknowledgement for this long is said to be silent: long enough that a slow
 * block (a device erasing flash) does not raise it, short enough that a pulled cable is seen at once.
 */
export const STALL_NOTICE_MS = 5000;

/** "No answer from the device for 5 s: check the cable"; empty while answers arrive. */
export function silenceText(job: Pick<JobView, 'phase' | 'silentSeconds'>, words: Words = englishWords()): string {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return '';
  if (job.silentSeconds === undefined || job.silentSeconds === null) return '';
  return words.t('domain:silence', { from: job.phase === 'uploading' ? 'device' : 'service', duration: durationText(job.silentSeconds) });
}

/** Seconds left in the current transfer at the current rate; null when not measurable (or silent: the time left stops counting). */
export function secondsLeft(job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal' | 'rateBytesPerSecond' | 'silentSeconds'>): number | null {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return null;
  if (job.silentSeconds !== undefined && job.silentSeconds !== null) return null;
  if (!job.bytesTotal || !job.rateBytesPerSecond || job.rateBytesPerSecond <= 0) return null;
  return Math.max(0, (job.bytesTotal - job.bytesDone) / job.rateBytesPerSecond);
}
