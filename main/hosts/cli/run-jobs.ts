import type { ChannelInput, ConfigurationReadinessView, JobSnapshot } from '../../../contract/index';
import { deviceLabel } from '../../../domain/job-progress-text';
import { errorTexts } from '../../../domain/job-errors';
import { cliTranslator } from './cli-language';
import { adviceLine, summaryLine } from './job-lines';
import type { CliContext } from './context';
import { EXIT } from './errors';
import { showProgress } from './progress-view';

/** A job as the CLI asks the core for it (contract/jobs.ts). */
export type JobRequest = ChannelInput<'jobs.start'>['requests'][number];

/**
 * Runs jobs on every target at once (the queue's concurrency limit applies), shows their
 * progress, and answers the exit code: 0 when every step of every device did its work, 1
 * otherwise (a configuration step skipped because the device is in no configuration counts).
 * Ctrl-C cancels the jobs (an interrupted firmware upload resumes on the next run).
 */
export async function runJobs(
  ctx: CliContext,
  requests: readonly JobRequest[],
  failedBefore: readonly string[],
  interrupt?: AbortSignal,
  /** What the command does with the finished jobs before it ends (the parameter confirmation); false fails the command. */
  afterFinish?: (finals: readonly JobSnapshot[]) => Promise<boolean>,
): Promise<number> {
  for (const line of failedBefore) ctx.out.error(line);
  const { runnable, refused } = await checkBeforeStart(ctx, requests);
  const notRun = failedBefore.length + refused;
  if (runnable.length === 0) return notRun > 0 ? EXIT.failed : EXIT.ok;
  const core = await ctx.jobs();
  const view = showProgress(core, ctx.out);
  const started = await core.invoke('jobs.start', { requests: runnable });
  const cancelAll = () => {
    for (const job of started) void core.invoke('jobs.cancel', { jobId: job.jobId });
  };
  interrupt?.addEventListener('abort', cancelAll, { once: true });
  try {
    const finals = await Promise.all(started.map((job) => core.invoke('jobs.wait', { jobId: job.jobId })));
    view.close();
    for (const job of finals) explainSteps(ctx, job);
    if (finals.length + notRun > 1 && !ctx.out.json) ctx.out.line(summaryLine(finals, notRun, cliTranslator()));
    const queued = finals.filter((job) => job.confirmation === 'queued').length;
    if (queued > 0) ctx.out.note(cliTranslator().t('cli:jobs.queued', { count: queued }));
    const accepted = afterFinish ? await afterFinish(finals) : true;
    return accepted && finals.every((job) => job.phase === 'done' && job.outcome !== 'partial') && notRun === 0
      ? EXIT.ok
      : EXIT.failed;
  } finally {
    interrupt?.removeEventListener('abort', cancelAll);
  }
}

/**
 * Before anything starts, the service is asked whether each device's configuration step can run:
 * a device in no configuration gets its firmware ("device update") and is told now that the
 * configuration will be skipped and why; a configuration-only job for it is not started.
 */
async function checkBeforeStart(
  ctx: CliContext,
  requests: readonly JobRequest[],
): Promise<{ runnable: JobRequest[]; refused: number }> {
  const asking = requests.filter(
    (r) =>
      r.action !== 'firmware' &&
      (r.configuration ?? { kind: 'service' }).kind === 'service' &&
      r.target.serialNumber !== undefined,
  );
  if (asking.length === 0) return { runnable: [...requests], refused: 0 };
  const answers = await ctx.core().invoke('jobs.readiness', {
    serialNumbers: asking.map((request) => request.target.serialNumber!),
  });
  const runnable: JobRequest[] = [];
  let refused = 0;
  for (const request of requests) {
    const index = asking.indexOf(request);
    if (index < 0) {
      runnable.push(request);
      continue;
    }
    const serialNumber = request.target.serialNumber!;
    const readiness: ConfigurationReadinessView = answers[index]!;
    if (readiness.ready !== false) {
      runnable.push(request);
    } else if (request.action === 'both') {
      ctx.out.note(
        cliTranslator().t('cli:jobs.firmwareOnly', { serial: serialNumber, reason: readinessReason(readiness) }),
      );
      runnable.push(request);
    } else {
      ctx.out.error(
        cliTranslator().t('cli:jobs.configurationNotStarted', {
          serial: serialNumber,
          reason: readinessReason(readiness),
          code: readiness.code,
        }),
      );
      refused += 1;
    }
  }
  return { runnable, refused };
}

/** For each step that did not do its work: what to do about it, from the catalogue (docs/errors.md), then the code for support. */
function explainSteps(ctx: CliContext, job: JobSnapshot): void {
  const seen = new Set<string>();
  for (const step of job.steps) {
    if ((step.status !== 'failed' && step.status !== 'skipped') || !step.errorCode || seen.has(step.errorCode))
      continue;
    seen.add(step.errorCode);
    const line = adviceLine(deviceLabel(job), step, step.errorCode, cliTranslator());
    if (line) ctx.out.note(line);
  }
}

/** Why a device's configuration cannot be applied: the service's English words, or the catalogue's in another language. */
function readinessReason(readiness: { reason: string; code: string }): string {
  const translator = cliTranslator();
  return translator.language === 'en'
    ? readiness.reason
    : (errorTexts(readiness.code, translator)?.what ?? readiness.reason);
}
