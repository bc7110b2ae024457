import { monotonicClock, type Clock } from './clock';

interface Entry<T> {
  at: number;
  item: T;
}

/**
 * Delivers items in order, each no earlier than its time, with one timer for the whole queue.
 * Items are pushed with non-decreasing times by a Pacer; everything due when the timer fires is
 * delivered at once, so a late timer never delays later items further.
 */
export class ScheduledQueue<T> {
  private readonly entries: Entry<T>[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private heldUntil = 0;

  constructor(
    private readonly deliver: (item: T) => void,
    private readonly clock: Clock = monotonicClock,
  ) {}

  push(at: number, item: T): void {
    this.entries.push({ at, item });
    if (this.timer === undefined) this.arm();
  }

  /** Holds every delivery for `ms` (a stalled device): items queue up and then arrive together. */
  hold(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, this.clock() + ms);
    this.rearm();
  }

  /** Drops whatever has not been delivered (the cable was pulled). */
  clear(): void {
    this.entries.length = 0;
    this.head = 0;
    this.heldUntil = 0;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  private rearm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.arm();
  }

  private arm(): void {
    const next = this.entries[this.head];
    if (next === undefined) return;
    const due = Math.max(next.at, this.heldUntil);
    const delay = Math.max(0, due - this.clock());
    this.timer = setTimeout(() => this.fire(), delay);
  }

  private fire(): void {
    this.timer = undefined;
    const now = this.clock();
    if (now >= this.heldUntil) {
      // A deliver callback may clear() the queue (a fault pulls the cable mid-batch).
      while (this.head < this.entries.length && this.entries[this.head]!.at <= now) {
        const { item } = this.entries[this.head++]!;
        this.deliver(item);
        if (this.timer !== undefined) return;
      }
      if (this.head > 1024 && this.head * 2 > this.entries.length) {
        this.entries.splice(0, this.head);
        this.head = 0;
      }
    }
    if (this.timer === undefined) this.arm();
  }
}
