import { englishWords, type Words } from './domain-words';
import { errorTexts } from './job-errors';
import type { FailureReason } from './job-failure';
import type { JobPhase, JobStep, JobView } from './jobs';

/**
 * The words and numbers a technician reads about a running job, the same in the CLI and the app.
 * Pure functions (in the manner of etcher's progress-status.ts): no I/O, no clocks.
 */

const ENGLISH_LOCALE: Pick<Words, 'locale'> = { locale: 'en-GB' };

/** A figure with the reader's decimal mark ("11.5", "11,5"), never grouped: sizes here stay under 1000 of their unit. */
function figure(value: number, fractionDigits: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
    useGrouping: false,
  }).format(value);
}

/** 1 kB = 1000 B, as line rates are counted (115200 baud moves 11.5 kB/s; "11,5 kB/s" in German). */
export function bytesText(bytes: number, words: Pick<Words, 'locale'> = ENGLISH_LOCALE): string {
  const scaled = (value: number) => figure(value, value >= 100 ? 0 : 1, words.locale);
  if (bytes < 1000) return `${figure(Math.round(bytes), 0, words.locale)} B`;
  if (bytes < 1_000_000) return `${scaled(bytes / 1000)} kB`;
  return `${scaled(bytes / 1_000_000)} MB`;
}

export function rateText(bytesPerSecond: number | null, words: Pick<Words, 'locale'> = ENGLISH_LOCALE): string {
  if (bytesPerSecond === null || !Number.isFinite(bytesPerSecond) || bytesPerSecond <= 0) return '';
  return `${bytesText(bytesPerSecond, words)}/s`;
}

/** 3 s, 45 s, 1 min 12 s, 2 h 5 min; "1 分 12 秒" in Chinese (the `domain` catalog's `duration.*`). */
export function durationText(seconds: number, words: Words = englishWords()): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return words.t('domain:duration.seconds', { seconds: s });
  if (s < 3600) {
    const rest = s % 60;
    const minutes = Math.floor(s / 60);
    return rest === 0
      ? words.t('domain:duration.minutes', { minutes })
      : words.t('domain:duration.minutesSeconds', { minutes, seconds: rest });
  }
  const hours = Math.floor(s / 3600);
  const minutes = Math.round((s % 3600) / 60);
  return minutes === 0
    ? words.t('domain:duration.hours', { hours })
    : words.t('domain:duration.hoursMinutes', { hours, minutes });
}

/** "Uploading firmware 2.4.1", "Firmware 2.4.1 wird übertragen", "Waiting for the device to restart". */
export function phaseText(
  phase: JobPhase,
  step: JobStep,
  what: { version?: string | null; serialNumber?: string | null } = {},
  words: Words = englishWords(),
): string {
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
  return words.t('domain:silence', {
    from: job.phase === 'uploading' ? 'device' : 'service',
    duration: durationText(job.silentSeconds, words),
  });
}

/** Seconds left in the current transfer at the current rate; null when not measurable (or silent: the time left stops counting). */
export function secondsLeft(
  job: Pick<JobView, 'phase' | 'bytesDone' | 'bytesTotal' | 'rateBytesPerSecond' | 'silentSeconds'>,
): number | null {
  if (job.phase !== 'uploading' && job.phase !== 'downloading') return null;
  if (job.silentSeconds !== undefined && job.silentSeconds !== null) return null;
  if (!job.bytesTotal || !job.rateBytesPerSecond || job.rateBytesPerSecond <= 0) return null;
  return Math.max(0, (job.bytesTotal - job.bytesDone) / job.rateBytesPerSecond);
}

/**
 * Why a job failed, in the reader's language: "firmware upload failed at 37 %: the device stopped
 * answering after 3 tries", "Übertragung der Firmware bei 37 % fehlgeschlagen: Das Gerät
 * antwortete nach 3 Versuchen nicht mehr". Where it failed is one message (`failure.place`), put
 * into the cause's message as a clause; the device's own code and words are shown as it sent them.
 */
export function failureReasonText(reason: FailureReason, words: Words = englishWords()): string {
  const percent =
    reason.percent === null
      ? ''
      : new Intl.NumberFormat(words.locale, { style: 'percent', maximumFractionDigits: 0 }).format(
          reason.percent / 100,
        );
  const place = words.t('domain:failure.place', {
    place: reason.place === 'upload' && reason.percent !== null ? 'uploadAt' : reason.place,
    step: reason.step,
    percent,
  });
  const tries = reason.tries ?? 1;
  switch (reason.cause) {
    case 'cancelled':
      return reason.place === 'upload' && reason.percent !== null
        ? words.t('domain:failure.cancelledAt', { percent })
        : words.t('domain:failure.cancelled');
    case 'deviceGone':
      return reason.waitedSeconds === undefined || reason.waitedSeconds === null
        ? words.t('domain:failure.deviceGone', { place })
        : words.t('domain:failure.deviceGoneWithin', { place, duration: durationText(reason.waitedSeconds, words) });
    case 'deviceTimeout':
      return words.t('domain:failure.deviceTimeout', { place, tries });
    case 'disconnected':
      return words.t('domain:failure.disconnected', { place });
    case 'deviceRefused':
      return reason.deviceMessage
        ? words.t('domain:failure.deviceRefusedSaying', {
            place,
            deviceCode: reason.deviceCode ?? '',
            deviceMessage: reason.deviceMessage,
          })
        : words.t('domain:failure.deviceRefused', { place, deviceCode: reason.deviceCode ?? '' });
    case 'noAnswer':
      return words.t('domain:failure.noAnswer', { link: reason.link ?? '', tries });
  }
}

/**
 * Why a job failed, in the reader's language, from what the core sent: its reason when it has one
 * (where, the cause, the figures), else its code's "what happened" from the errors catalogue; null
 * when neither says anything (show the core's English then). A device's refusal with a code the
 * catalogue explains (FW_HASH_MISMATCH…) reads better as the catalogue's sentence than as "the
 * device refused it (FW_HASH_MISMATCH)".
 */
export function jobFailureText(
  reason: FailureReason | null | undefined,
  code: string | null | undefined,
  words: Words = englishWords(),
): string | null {
  const explained = code ? errorTexts(code, words)?.what : undefined;
  if (reason && !(reason.cause === 'deviceRefused' && explained)) return failureReasonText(reason, words);
  return explained ?? null;
}
