/** A manual clock and timer queue: tests move time themselves, nothing waits on the wall clock. */
export class FakeTime {
  private current: number;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.current = start;
  }

  now = (): number => this.current;

  readonly clock = { now: (): number => this.current };

  readonly timers = {
    setTimeout: (callback: () => void, ms: number): unknown => {
      const id = this.nextId++;
      this.pending.set(id, { at: this.current + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout: (handle: unknown): void => {
      this.pending.delete(handle as number);
    },
  };

  /** Timers waiting, as delays from now, soonest first. */
  scheduled(): number[] {
    return [...this.pending.values()].map((t) => t.at - this.current).sort((a, b) => a - b);
  }

  /** Move time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    while (true) {
      let nextId: number | undefined;
      let nextAt = Infinity;
      for (const [id, timer] of this.pending) {
        if (timer.at <= target && timer.at < nextAt) {
          nextAt = timer.at;
          nextId = id;
        }
      }
      if (nextId === undefined) break;
      const timer = this.pending.get(nextId)!;
      this.pending.delete(nextId);
      this.current = Math.max(this.current, timer.at);
      timer.callback();
    }
    this.current = target;
  }
}

/** A promise with its resolve exposed. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
