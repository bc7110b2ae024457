/**
 * Bytes per second over the last `windowMs`, for progress a person reads: steady enough not to
 * flicker, recent enough to show a stall.
 */
export class RateMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  constructor(
    private readonly windowMs = 2000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records that `bytes` (a running total) were done now; returns the current rate. */
  record(bytes: number): number {
    const at = this.now();
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = (at - first.at) / 1000;
    return elapsed > 0 ? (bytes - first.bytes) / elapsed : 0;
  }
}
