import type { DeviceType } from '../../domain/device-types';

/**
 * What a provisioning job looks like from outside: one plain object per job, replaced (never
 * mutated) on every change, so the CLI and the UI can keep the last one they saw. The fields of
 * `JobSnapshot` are those of the UI contract's `JobView` (preload/contract.ts) plus a few the CLI
 * prints; the UI passes snapshots through as they are.
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

/** How a finished job ended, beyond its phase. */
export type JobOutcome =
  /** The device now runs the firmware / holds the configuration, checked by reading it back. */
  | 'applied'
  /** Nothing to do: the device already ran that firmware (a configuration is always applied). */
  | 'up-to-date'
  | 'failed'
  | 'cancelled';

export interface JobSnapshot {
  jobId: string;
  /** How the device was targeted: a link spec ('serial:/dev/ttyACM0') or 'sn:EPC000101'. */
  linkId: string;
  serialNumber: string | null;
  deviceType: DeviceType | null;
  action: JobAction;
  /** In `both`: which of the two steps runs now. */
  step: JobStep;
  phase: JobPhase;
  /** Bytes of the current transfer (acknowledged by the device while uploading). */
  bytesDone: number;
  bytesTotal: number | null;
  /** Bytes per second over the last few seconds; null before there is a measurement. */
  rateBytesPerSecond: number | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /** Set when finished: what happened, phrased for the technician (one line). */
  resultMessage: string | null;
  /** Firmware the job installs (while running) or installed (when done). */
  firmwareVersion: string | null;
  /** Configuration syncId the job applies or applied. */
  syncId: string | null;
  /** Whether the confirmation reached the service, waits in the outbox, or there is none. */
  confirmation: 'sent' | 'queued' | 'none';

  // Beyond the UI contract:
  /** The link actually used, e.g. 'serial:/dev/pts/4', once connected. */
  link: string | null;
  /** Firmware the device ran before the job. */
  previousFirmwareVersion: string | null;
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
}

export function initialSnapshot(input: { jobId: string; linkId: string; action: JobAction; serialNumber?: string | null; now: Date }): JobSnapshot {
  const at = input.now.toISOString();
  return {
    jobId: input.jobId,
    linkId: input.linkId,
    serialNumber: input.serialNumber ?? null,
    deviceType: null,
    action: input.action,
    step: input.action === 'configuration' ? 'configuration' : 'firmware',
    phase: 'queued',
    bytesDone: 0,
    bytesTotal: null,
    rateBytesPerSecond: null,
    startedAt: at,
    updatedAt: at,
    finishedAt: null,
    resultMessage: null,
    firmwareVersion: null,
    syncId: null,
    confirmation: 'none',
    link: null,
    previousFirmwareVersion: null,
    resumedFrom: null,
    attempts: 0,
    notice: null,
    outcome: null,
    errorCode: null,
    resumable: false,
  };
}

/** The part of a snapshot a running job may change; the queue keeps the rest. */
export type JobUpdate = Partial<Omit<JobSnapshot, 'jobId' | 'linkId' | 'action' | 'startedAt' | 'updatedAt' | 'rateBytesPerSecond'>>;
