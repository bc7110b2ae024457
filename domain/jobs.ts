import type { DeviceType } from './device-types';
import type { CodingTerms } from './files/content-coding';
import type { FailureReason } from './job-failure';
import type { JobStepResult } from './job-steps';
import type { ParameterTableView } from './parameter-table-view';
import type { ParameterComparison } from './running-parameters';

/**
 * The vocabulary of provisioning jobs, shared by the core that runs them, the CLI that prints them,
 * the contract that carries them and the renderer that draws them.
 */

export const JOB_ACTIONS = ['firmware', 'configuration', 'both'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];
export type JobStep = 'firmware' | 'configuration';

export const JOB_PHASES = [
  'queued',
  'resolving',
  'downloading',
  'verifying',
  'uploading',
  'applying',
  'rebooting',
  'checking',
  /** Reading back the parameters the device runs and comparing them with the configuration's (issue 26). */
  'verifying-parameters',
  'confirming',
  'done',
  'failed',
  'cancelled',
] as const;
export type JobPhase = (typeof JOB_PHASES)[number];
export const FINISHED_PHASES: readonly JobPhase[] = ['done', 'failed', 'cancelled'];

export function isFinishedPhase(phase: JobPhase): boolean {
  return FINISHED_PHASES.includes(phase);
}

/** Whether a job's confirmation reached the service, waits in the outbox, or there is none. */
export type JobConfirmation = 'sent' | 'queued' | 'none';

/** A job as the UI sees it: one plain object per job, replaced on every change. */
export interface JobView {
  jobId: string;
  /** How the device was targeted: a link spec ('serial:/dev/ttyACM0') or 'sn:EPC000101'. */
  linkId: string;
  serialNumber: string | null;
  deviceType: DeviceType | null;
  action: JobAction;
  /** In `both`: which of the two steps runs now. */
  step: JobStep;
  phase: JobPhase;
  /** Bytes of the current transfer (acknowledged by the device while uploading); total null when not known yet. */
  bytesDone: number;
  bytesTotal: number | null;
  /** Bytes per second over the last few seconds; null before there is a measurement. */
  rateBytesPerSecond: number | null;
  /**
   * How a firmware upload travels while it runs, e.g. "compressed, 1.6× faster" (bytes and rate then
   * count image bytes carried); null or absent: the image's own bytes.
   */
  transferCoding?: string | null;
  /** The same as codes and a figure, for a reader of another language; null or absent with `transferCoding`. */
  transferCodingTerms?: CodingTerms | null;
  /**
   * Whole seconds a running transfer has gone without an acknowledgement, once that is long enough
   * to tell the technician (STALL_NOTICE_MS, a pulled cable); null or absent while answers arrive.
   */
  silentSeconds?: number | null;
  /** ISO times. */
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** Set when finished: what happened, phrased for the technician (one line). */
  resultMessage: string | null;
  /**
   * Set when it failed at the bench (the device went away, stopped answering, refused…): why, as
   * codes and values, for the screens and the CLI to say in the reader's language
   * (failureReasonText, domain/job-text.ts). resultMessage keeps the core's English. Null or absent
   * for other failures, whose errorCode's catalogue text says what happened (and from older cores).
   */
  failureReason?: FailureReason | null;
  /** Firmware the job installs (while running) or installed (when done). */
  firmwareVersion: string | null;
  /** Configuration syncId the job applies or applied. */
  syncId: string | null;
  confirmation: JobConfirmation;
  /**
   * Each step's own outcome, in order (domain/job-steps.ts): a "both" job whose firmware installed
   * and whose configuration could not be applied says so step by step.
   */
  steps: JobStepResult[];
  /**
   * A configuration job's parameter verification (issue 26), for the technician to compare and
   * confirm (`workbench.confirmParameters`); null or absent when not read back (and from older cores).
   */
  parameters?: ParameterTableView | null;
}

/**
 * What a provisioning job looks like from outside: one plain object per job, replaced (never
 * mutated) on every change, so the CLI and the UI can keep the last one they saw. The fields of
 * `JobSnapshot` are those of `JobView` (domain/jobs.ts, what the UI contract carries) plus a few the
 * CLI prints; the workbench cuts them down to the view for the renderer (toJobView), the CLI
 * receives them whole through the contract's `jobs.*` channels.
 */

/** How a finished job ended, beyond its phase. */
export type JobOutcome =
  /** The device now runs the firmware / holds the configuration, checked by reading it back. */
  | 'applied'
  /** Nothing to do: the device already ran that firmware, or held that very configuration file. */
  | 'up-to-date'
  /** Some steps did their work and others were skipped, for the reason their step gives (the device is in no configuration). */
  | 'partial'
  | 'failed'
  | 'cancelled';

/** The core's job: the view's fields, with the full parameter comparison where the view has its table. */
export interface JobSnapshot extends Omit<JobView, 'parameters'> {
  /** The link actually used, e.g. 'serial:/dev/pts/4', once connected. */
  link: string | null;
  /** Firmware the device ran before the job. */
  previousFirmwareVersion: string | null;
  /** The release key that signed the firmware the job installs (checked before any upload); null before. */
  firmwareSigner: { keyId: string; name: string } | null;
  /** Offset the device resumed an interrupted upload from (0 for a fresh upload); null before. */
  resumedFrom: number | null;
  /** Attempts at the device so far (reconnections after a pulled cable count). */
  attempts: number;
  /** Something the technician should know that is not a failure (e.g. installed from the cache offline). */
  notice: string | null;
  outcome: JobOutcome | null;
  /** Stable code of the failure (device, file or service code), e.g. 'FW_HASH_MISMATCH', 'DEVICE_TIMEOUT'. */
  errorCode: string | null;
  /** Whether running the job again continues where this one stopped (an interrupted upload). */
  resumable: boolean;
  /**
   * A configuration job's parameter verification (issue 26): what the device runs against what the
   * file intends. Confirmed by a person afterwards, never by the job. Null when not read back.
   */
  parameters: ParameterComparison | null;
}
