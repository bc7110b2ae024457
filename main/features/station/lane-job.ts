import type { JobSnapshot } from '../../engine/jobs/job-state';

/**
 * What a lane keeps of its job: the fields its tile, its view, its events and the shift report
 * read. Not the job's steps, its parameter table (a receiver's names every sender of the
 * configuration as a peer) nor its signer and link: a shift keeps one lane per device until it
 * ends, and the record of a few hundred devices must stay a few hundred small records.
 */
export type LaneJob = Pick<
  JobSnapshot,
  | 'jobId'
  | 'step'
  | 'phase'
  | 'bytesDone'
  | 'bytesTotal'
  | 'rateBytesPerSecond'
  | 'transferCoding'
  | 'resultMessage'
  | 'firmwareVersion'
  | 'syncId'
  | 'confirmation'
  | 'errorCode'
  | 'failureReason'
  | 'resumable'
>;

/** The lane's record of `job`: a copy of those fields only, so the snapshot itself can be collected. */
export function laneJob(job: LaneJob): LaneJob {
  return {
    jobId: job.jobId,
    step: job.step,
    phase: job.phase,
    bytesDone: job.bytesDone,
    bytesTotal: job.bytesTotal,
    rateBytesPerSecond: job.rateBytesPerSecond,
    transferCoding: job.transferCoding ?? null,
    resultMessage: job.resultMessage,
    firmwareVersion: job.firmwareVersion,
    syncId: job.syncId,
    confirmation: job.confirmation,
    errorCode: job.errorCode,
    failureReason: job.failureReason ?? null,
    resumable: job.resumable,
  };
}
