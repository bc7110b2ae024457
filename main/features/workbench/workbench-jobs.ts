import type { LinkSpec } from '../../devices';
import type { DeviceType } from '../../../domain/device-types';
import type { JobAction, JobView } from '../../../domain/jobs';
import { parameterTableView } from '../../../domain/parameter-table-view';
import type { JobSnapshot } from '../../engine/jobs/job-state';
import type { JobsEngine } from '../../engine/jobs/jobs-engine';

/** A device a job works on: where it is and who it said it was. */
export interface JobTarget {
  linkId: string;
  spec: LinkSpec;
  serialNumber: string;
  deviceType: DeviceType;
}

/**
 * The jobs engine (main/engine/jobs, which the CLI drives too) as the workbench's channels use it:
 * jobs start on the workbench's attached devices, and every snapshot is cut down to the
 * contract's JobView, so nothing the renderer does not expect crosses the IPC boundary.
 */
export interface WorkbenchJobs {
  start(targets: readonly JobTarget[], action: JobAction): JobView[];
  cancel(jobId: string): boolean;
  /** A new job for the same device and action. */
  retry(jobId: string): JobView;
  jobs(): JobView[];
  /** Forgets finished jobs; returns what remains. */
  clearFinished(): JobView[];
  /** Jobs whose state changed, batched and throttled. */
  onProgress(listener: (jobs: JobView[]) => void): () => void;
  /** A job reached done, failed or cancelled. */
  onFinished(listener: (job: JobView) => void): () => void;
  /** Cancels what runs and waits for it to stop. */
  close(): Promise<void>;
}

/** The part of the jobs engine the Workbench drives: its queue, not its outbox, ledger or cache. */
export type WorkbenchEngine = Pick<
  JobsEngine,
  'start' | 'cancel' | 'retry' | 'jobs' | 'clearFinished' | 'onProgress' | 'onFinished' | 'close'
>;

export function workbenchJobs(engine: WorkbenchEngine): WorkbenchJobs {
  return {
    start: (targets, action) =>
      engine
        .start(targets.map((t) => ({ action, target: { kind: 'link', spec: t.linkId, serialNumber: t.serialNumber } })))
        .map(toJobView),
    cancel: (jobId) => engine.cancel(jobId),
    retry: (jobId) => toJobView(engine.retry(jobId)),
    jobs: () => engine.jobs().map(toJobView),
    clearFinished: () => engine.clearFinished().map(toJobView),
    onProgress: (listener) => engine.onProgress((batch) => listener(batch.map(toJobView))),
    onFinished: (listener) => engine.onFinished((job) => listener(toJobView(job))),
    close: () => engine.close(),
  };
}

/** Exported for its test: a field of JobView left out here never reaches a screen. */
export function toJobView(job: JobSnapshot): JobView {
  return {
    jobId: job.jobId,
    linkId: job.linkId,
    serialNumber: job.serialNumber,
    deviceType: job.deviceType,
    action: job.action,
    step: job.step,
    phase: job.phase,
    bytesDone: job.bytesDone,
    bytesTotal: job.bytesTotal,
    rateBytesPerSecond: job.rateBytesPerSecond,
    // "compressed, 1.6× faster": the workbench row names how the image travels, as the CLI's line does.
    transferCoding: job.transferCoding ?? null,
    transferCodingTerms: job.transferCodingTerms ?? null,
    silentSeconds: job.silentSeconds ?? null,
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    // The notice (e.g. "installed from the cache, the service is unreachable") belongs with the result.
    resultMessage:
      job.resultMessage && job.notice && job.phase === 'done'
        ? `${job.resultMessage}. ${job.notice}`
        : job.resultMessage,
    // Why it failed as codes and values: the screens say it in the reader's language.
    failureReason: job.failureReason ?? null,
    firmwareVersion: job.firmwareVersion,
    syncId: job.syncId,
    confirmation: job.confirmation,
    steps: job.steps,
    parameters: job.parameters ? parameterTableView(job.parameters) : null,
  };
}
