import type { JobTarget, ProvisioningService as BenchProvisioning } from './workbench-jobs';
import type { JobAction as ContractJobAction, JobView } from '../../../contract/index';
import type { JobSnapshot } from '../jobs/job-state';
import type { ProvisioningService } from '../jobs/provisioning-service';

/**
 * The app's bench (main/core/bench) asks for provisioning through its own small interface; this
 * serves it from the jobs engine. Snapshots are cut down to the contract's JobView, so nothing the
 * renderer does not expect crosses the IPC boundary.
 */
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
    startedAt: job.startedAt,
    updatedAt: job.updatedAt,
    finishedAt: job.finishedAt,
    // The notice (e.g. "installed from the cache, the service is unreachable") belongs with the result.
    resultMessage: job.resultMessage && job.notice && job.phase === 'done' ? `${job.resultMessage}. ${job.notice}` : job.resultMessage,
    firmwareVersion: job.firmwareVersion,
    syncId: job.syncId,
    confirmation: job.confirmation,
  };
}

export function benchProvisioning(service: ProvisioningService): BenchProvisioning {
  return {
    start: (targets: readonly JobTarget[], action: ContractJobAction) =>
      service
        .start(targets.map((t) => ({ action, target: { kind: 'link', spec: t.linkId, serialNumber: t.serialNumber } })))
        .map(toJobView),
    cancel: (jobId) => service.cancel(jobId),
    retry: (jobId) => toJobView(service.retry(jobId)),
    jobs: () => service.jobs().map(toJobView),
    clearFinished: () => service.clearFinished().map(toJobView),
    onProgress: (listener) => service.onProgress((batch) => listener(batch.map(toJobView))),
    onFinished: (listener) => service.onFinished((job) => listener(toJobView(job))),
    close: () => service.close(),
  };
}
