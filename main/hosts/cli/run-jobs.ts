import { batchSummary, type JobRequest } from '../../app/jobs';
import type { CliContext } from './context';
import { EXIT } from './errors';
import { showProgress } from './progress-view';

/**
 * Runs jobs on every target at once (the queue's concurrency limit applies), shows their
 * progress, and answers the exit code: 0 when every device succeeded, 1 otherwise. Ctrl-C cancels
 * the jobs (an interrupted firmware upload resumes on the next run).
 */
export async function runJobs(ctx: CliContext, requests: readonly JobRequest[], failedBefore: readonly string[], interrupt?: AbortSignal): Promise<number> {
  for (const line of failedBefore) ctx.out.error(line);
  if (requests.length === 0) return failedBefore.length > 0 ? EXIT.failed : EXIT.ok;
  const service = await ctx.provisioning();
  const view = showProgress(service, ctx.out);
  const started = service.start(requests);
  const cancelAll = () => {
    for (const job of started) service.cancel(job.jobId);
  };
  interrupt?.addEventListener('abort', cancelAll, { once: true });
  try {
    const finals = await Promise.all(started.map((job) => service.wait(job.jobId)));
    view.close();
    if (finals.length + failedBefore.length > 1 && !ctx.out.json) ctx.out.line(batchSummary(finals) + (failedBefore.length > 0 ? `, ${failedBefore.length} not found` : ''));
    const queued = finals.filter((job) => job.confirmation === 'queued').length;
    if (queued > 0) ctx.out.note(`${queued} confirmation${queued === 1 ? '' : 's'} wait${queued === 1 ? 's' : ''} in the outbox until the service can be reached; send with: provisioner outbox sync`);
    return finals.every((job) => job.phase === 'done') && failedBefore.length === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    interrupt?.removeEventListener('abort', cancelAll);
  }
}
