import type { Clock } from './clock';
import { monotonicClock } from './clock';
import type { WireModel } from './models';
import { Pacer } from './pacer';
import { ScheduledQueue } from './scheduled-queue';

/**
 * One direction of a link: chunks go in at memory speed and come out in order at the time the
 * wire model says their last byte arrives.
 */
export class PacedChannel<T extends { length: number }> {
  private readonly pacer: Pacer;
  private readonly queue: ScheduledQueue<T>;
  /** Bytes that have crossed, for measurements. */
  deliveredBytes = 0;

  constructor(
    private readonly model: WireModel,
    deliver: (chunk: T) => void,
    clock: Clock = monotonicClock,
  ) {
    this.pacer = new Pacer(clock);
    this.queue = new ScheduledQueue<T>((chunk) => {
      this.deliveredBytes += chunk.length;
      deliver(chunk);
    }, clock);
  }

  send(chunk: T): void {
    const at = this.pacer.reserve(this.model.transmitSeconds(chunk.length)) + this.model.latencyMs;
    this.queue.push(at, chunk);
  }

  hold(ms: number): void {
    this.queue.hold(ms);
  }

  clear(): void {
    this.queue.clear();
    this.pacer.reset();
  }

  get pending(): number {
    return this.queue.size;
  }
}
