import { plannedSteps } from '../../../domain/job-steps';
import {
  FINISHED_PHASES,
  isFinishedPhase,
  JOB_ACTIONS,
  JOB_PHASES,
  type JobAction,
  type JobPhase,
  type JobSnapshot,
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

// The job record (the view's fields plus those the CLI prints) is the domain's: the contract
// carries it to a host that prints it (domain/jobs.ts).
export type { JobOutcome, JobSnapshot } from '../../../domain/jobs';

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
