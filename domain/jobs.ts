import type { DeviceType } from './device-types';
import type { FailureReason } from './job-failure';
import type { JobStepResult } from './job-steps';
import type { ParameterTableView } from './parameter-table-view';

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
