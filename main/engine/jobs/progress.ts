import type { JobSnapshot } from './job-state';

export * from './progress-text';

/**
 * Progress events for the CLI and the UI. A job may report every acknowledged block (hundreds a
 * second on a fast link, times 16 devices); listeners get at most one batch per interval holding
 * the latest snapshot of each job that changed, so the cost is bounded by the interval, not by the
 * number of blocks or devices. A job that finishes is delivered at once: the last word of a job
 * must never wait behind a timer that a closing process might not let fire.
 */

export interface ProgressTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realProgressTimers: ProgressTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // Progress alone must not keep a CLI process alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** 10 batches a second: smooth enough for a bar, cheap enough for 16 devices. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

export type ProgressListener = (batch: JobSnapshot[]) => void;

export class ProgressBatcher {
  private readonly dirty = new Map<string, JobSnapshot>();
  private readonly listeners = new Set<ProgressListener>();
  private timer: unknown;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  /** Batches delivered, for tests and the benchmark. */
  batches = 0;

  constructor(
    private readonly intervalMs = DEFAULT_PROGRESS_INTERVAL_MS,
    private readonly timers: ProgressTimers = realProgressTimers,
  ) {}

  subscribe(listener: ProgressListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A job changed; the newest snapshot of a job replaces any older one still waiting. */
  update(snapshot: JobSnapshot): void {
    this.dirty.set(snapshot.jobId, snapshot);
    if (snapshot.phase === 'done' || snapshot.phase === 'failed' || snapshot.phase === 'cancelled') {
      this.flush();
      return;
    }
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.lastFlushAt + this.intervalMs - this.timers.now());
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /** Deliver what is waiting now. */
  flush(): void {
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty.values()];
    this.dirty.clear();
    this.lastFlushAt = this.timers.now();
    this.batches += 1;
    for (const listener of [...this.listeners]) {
      try {
        listener(batch);
      } catch {
        // A broken listener (a closed window) must not stop the others or the job.
      }
    }
  }

  dispose(): void {
    this.flush();
    this.listeners.clear();
  }
}

/**
 * Transfer rate over a sliding window of the last few seconds: steady enough to read, quick to
 * follow a change (a stalled cable). A restart of the transfer (resume, retry) starts afresh. The
 * one place the rate a person reads is measured: the device operations report bytes only.
 */
export class RateMeter {
  private samples: Array<{ at: number; bytes: number }> = [];

  constructor(
    private readonly windowMs = 3000,
    /** No figure until the window spans this long: the first blocks' timing is noise. */
    private readonly minSpanMs = 400,
  ) {}

  reset(): void {
    this.samples = [];
  }

  /** Records `bytes` done at `at` (ms) and returns bytes per second, or null while unknown. */
  sample(bytes: number, at: number): number | null {
    const last = this.samples.at(-1);
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const span = at - first.at;
    if (span < this.minSpanMs) return null;
    return ((bytes - first.bytes) * 1000) / span;
  }
}
