import type { JobStep } from './jobs';

/**
 * Why a job failed, as the core found it, in codes and values rather than a sentence: the screens
 * and the CLI say it in the reader's language (`failureReasonText`, domain/job-text.ts). The job
 * keeps the core's English sentence too (`resultMessage`), which logs and `--json` read.
 *
 * Only the failures a technician meets at the bench are here: the device went away, stopped
 * answering, disconnected or refused, no device answered at all, or the job was cancelled.
 * Others (a service's refusal, a file that is not one) carry their error code, whose catalogue
 * text says what happened (domain/job-errors.ts).
 */
export interface FailureReason {
  cause: FailureCause;
  step: JobStep;
  /** Where in the job it failed. */
  place: FailurePlace;
  /** Whole percent of the upload the device acknowledged, when it failed or was cancelled uploading. */
  percent: number | null;
  /** `deviceTimeout`, `noAnswer`: how many times the request was sent. */
  tries?: number;
  /** `deviceGone`: how long the job waited for the device to come back, in seconds, when known. */
  waitedSeconds?: number | null;
  /** `deviceRefused`: the device's own code and words (data: shown as the device sent them). */
  deviceCode?: string;
  deviceMessage?: string | null;
  /** `noAnswer`: the link nothing answered on (`serial:/dev/ttyACM0`). */
  link?: string;
}

export const FAILURE_CAUSES = [
  'cancelled',
  'deviceGone',
  'deviceTimeout',
  'disconnected',
  'deviceRefused',
  'noAnswer',
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

export const FAILURE_PLACES = ['upload', 'apply', 'reboot', 'readBack', 'parameters', 'fetch', 'step'] as const;
export type FailurePlace = (typeof FAILURE_PLACES)[number];

/** The place of a job's phase (its JobPhase, or the phase name the core had when it failed). */
export function failurePlace(phase: string): FailurePlace {
  switch (phase) {
    case 'uploading':
      return 'upload';
    case 'applying':
      return 'apply';
    case 'rebooting':
      return 'reboot';
    case 'checking':
      return 'readBack';
    case 'verifying-parameters':
      return 'parameters';
    case 'resolving':
    case 'downloading':
      return 'fetch';
    default:
      return 'step';
  }
}
