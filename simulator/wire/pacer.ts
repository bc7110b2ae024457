import { monotonicClock, type Clock } from './clock';

/**
 * A virtual-clock pacer for one direction of a wire: each chunk reserves the wire for its
 * transmission time after the previous chunk, so the time a chunk has fully crossed is computed
 * exactly, whatever the timer jitter. Sleeping per byte (or even per chunk with setTimeout) would
 * accumulate timer lateness and fall well short of 921600 baud; here lateness never carries over
 * because the next chunk starts from the reserved end of the previous one, not from when a timer
 * happened to fire.
 */
export class Pacer {
  private busyUntil = 0;

  constructor(private readonly clock: Clock = monotonicClock) {}

  /** Reserves `seconds` of wire time; returns the clock time (ms) at which the chunk has crossed. */
  reserve(seconds: number): number {
    const start = Math.max(this.clock(), this.busyUntil);
    this.busyUntil = start + seconds * 1000;
    return this.busyUntil;
  }

  /** The wire is idle again (a cable pulled, a reboot): queued chunks are gone. */
  reset(): void {
    this.busyUntil = 0;
  }
}
