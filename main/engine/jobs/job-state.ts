import { plannedSteps } from '../../../domain/job-steps';
import type { ParameterComparison } from '../../../domain/running-parameters';
import {
  FINISHED_PHASES,
  isFinishedPhase,
  JOB_ACTIONS,
  JOB_PHASES,
  type JobAction,
  type JobPhase,
  type JobStep,
  type JobView,
} from '../../../domain/jobs';

export {
  FINISHED_PHASES,
  isFinishedPhase,
  JOB_ACTIONS,
  JOB_PHASES,
  type JobAction,
  type JobPhase,
  type JobStep,
  type JobView,
};

/**
 * What a provisioning job looks like from outside: one plain object per job, replaced (never
 * mutated) on every change, so the CLI and the UI can keep the last one they saw. The fields of
 * `JobSnapshot` are those of `JobView` (domain/jobs.ts, what the UI contract carries) plus a few the
 * CLI prints; the UI passes snapshots through as they are.
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

export function initialSnapshot(input: {
  jobId: string;
  linkId: string;
  action: JobAction;
  serialNumber?: string | null;
  now: Date;
}): JobSnapshot {
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
    steps: plannedSteps(input.action),
    link: null,
    previousFirmwareVersion: null,
    firmwareSigner: null,
    resumedFrom: null,
    attempts: 0,
    notice: null,
    outcome: null,
    errorCode: null,
    resumable: false,
    parameters: null,
  };
}

/** The part of a snapshot a running job may change; the queue keeps the rest. */
export type JobUpdate = Partial<
  Omit<JobSnapshot, 'jobId' | 'linkId' | 'action' | 'startedAt' | 'updatedAt' | 'rateBytesPerSecond'>
>;
