import { monotonicClock, type Clock } from './clock';
import { Pacer } from './pacer';

/**
 * The device's flash write speed: a block is acknowledged only once it is written, so a slow flash
 * slows the upload as it would on hardware. Writes queue behind each other on the same virtual clock.
 */
export class FlashModel {
  private readonly pacer: Pacer;

  constructor(
    readonly bytesPerSecond: number,
    private readonly clock: Clock = monotonicClock,
  ) {
    this.pacer = new Pacer(clock);
  }

  async write(bytes: number): Promise<void> {
    if (!Number.isFinite(this.bytesPerSecond)) return;
    const done = this.pacer.reserve(bytes / this.bytesPerSecond);
    const wait = done - this.clock();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
