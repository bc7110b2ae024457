import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import type { JobSnapshot } from '../../../contract/index';
import { deviceLabel, transferPercent } from '../../../domain/job-progress-text';
import type { CliCore } from '../../core/index';
import { cliTranslator } from './cli-language';
import { finishedLine, runningLine } from './job-lines';
import type { Output } from './output';

/**
 * Shows jobs as they run: bars on a terminal, a line per step (and per 10% of an upload) when the
 * output is a file or a pipe, JSON lines with --json. Every finished job ends with one line: the
 * result on stdout, or `error: SN: why` on stderr.
 */
export interface ProgressView {
  /** Stops drawing; call after the last job finished. */
  close(): void;
}

/** Where the job records come from: the core's `jobs.changed` and `jobs.finished` events. */
type JobEvents = Pick<CliCore, 'subscribe'>;

export function showProgress(core: JobEvents, out: Output): ProgressView {
  switch (out.mode) {
    case 'json':
      return jsonView(core, out);
    case 'tty':
      return barView(core, out);
    case 'plain':
      return lineView(core, out);
  }
}

function reportFinished(job: JobSnapshot, out: Output, log: (text: string) => void): void {
  const label = deviceLabel(job);
  if (job.phase === 'done') {
    log(`${label}: ${finishedLine(job, cliTranslator())}`);
    if (job.notice) out.note(`${label}: ${job.notice}`);
  } else {
    out.error(`${label}: ${finishedLine(job, cliTranslator())}`);
  }
}

function jsonView(core: JobEvents, out: Output): ProgressView {
  const offProgress = core.subscribe('jobs.changed', (batch) => {
    for (const job of batch) if (job.finishedAt === null) out.jsonLine({ event: 'progress', job });
  });
  const offFinished = core.subscribe('jobs.finished', (job) => out.jsonLine({ event: 'result', job }));
  return {
    close() {
      offProgress();
      offFinished();
    },
  };
}

function lineView(core: JobEvents, out: Output): ProgressView {
  const last = new Map<string, { phase: string; decile: number; notice: string | null; silent: boolean }>();
  const offProgress = core.subscribe('jobs.changed', (batch) => {
    for (const job of batch) {
      if (job.finishedAt !== null || job.phase === 'queued') continue;
      const seen = last.get(job.jobId);
      const percent = transferPercent(job);
      const decile = job.phase === 'uploading' && percent !== null ? Math.floor(percent / 10) : -1;
      if (job.notice && job.notice !== seen?.notice) out.note(`${deviceLabel(job)}: ${job.notice}`);
      // A transfer falling silent (a pulled cable) is said once, when it starts; progress again is said too.
      const silent = typeof job.silentSeconds === 'number';
      if (!seen || seen.phase !== job.phase || decile > seen.decile || silent !== seen.silent)
        out.line(`${deviceLabel(job)}: ${runningLine(job, cliTranslator())}`);
      last.set(job.jobId, {
        phase: job.phase,
        decile: Math.max(decile, seen?.phase === job.phase ? seen.decile : -1),
        notice: job.notice,
        silent,
      });
    }
  });
  const offFinished = core.subscribe('jobs.finished', (job) => reportFinished(job, out, (text) => out.line(text)));
  return {
    close() {
      offProgress();
      offFinished();
    },
  };
}

function barView(core: JobEvents, out: Output): ProgressView {
  // Bars go to stderr and vanish at the end; the result lines are then written as in plain mode,
  // so a terminal shows the same record a log file would.
  const multi = new MultiBar(
    {
      stream: out.io.stderr,
      format: '{device} {bar} {percentage}% | {text}',
      hideCursor: true,
      clearOnComplete: true,
      barsize: 24,
      fps: 10,
      autopadding: true,
    },
    Presets.shades_classic,
  );
  const bars = new Map<string, SingleBar>();
  const finished: JobSnapshot[] = [];
  const payload = (job: JobSnapshot, text: string) => ({ device: deviceLabel(job).padEnd(12), text });
  const barFor = (job: JobSnapshot): SingleBar => {
    let bar = bars.get(job.jobId);
    if (!bar) {
      bar = multi.create(100, 0, payload(job, runningLine(job, cliTranslator())));
      bars.set(job.jobId, bar);
    }
    return bar;
  };
  const offProgress = core.subscribe('jobs.changed', (batch) => {
    for (const job of batch) {
      if (job.finishedAt !== null) continue;
      const percent =
        job.phase === 'uploading'
          ? (transferPercent(job) ?? 0)
          : ['applying', 'rebooting', 'checking', 'verifying-parameters', 'confirming'].includes(job.phase)
            ? 100
            : 0;
      barFor(job).update(Math.floor(percent), payload(job, runningLine(job, cliTranslator())));
    }
  });
  const offFinished = core.subscribe('jobs.finished', (job) => {
    finished.push(job);
    barFor(job).update(
      job.phase === 'done' ? 100 : Math.floor(transferPercent(job) ?? 0),
      payload(job, `${job.phase === 'done' ? 'done' : job.phase}: ${finishedLine(job, cliTranslator())}`),
    );
  });
  return {
    close() {
      offProgress();
      offFinished();
      multi.stop();
      for (const job of finished) reportFinished(job, out, (text) => out.line(text));
    },
  };
}
