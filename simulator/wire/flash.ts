import { monotonicClock, type Clock } from './clock';
import { Pacer } from './pacer';

/**
 * How far the writer may run ahead of the flash, in ms: the page buffer a flash controller fills
 * while the previous page programs. Without it every block would wait for its own timer, and a
 * timer takes a millisecond or more on a busy computer, whatever the flash model says: half a
 * millisecond per 1024-byte block at 2 MB/s would become several.
 */
export const FLASH_WRITE_BUFFER_MS = 20;

/**
 * The device's flash write speed: a block is acknowledged only once the flash has taken it, so a
 * slow flash slows the upload as it would on hardware. Writes queue behind each other on the same
 * virtual clock; a writer runs at most FLASH_WRITE_BUFFER_MS ahead of the flash, and once it is
 * that far ahead it waits until half of that is written, so the flash never idles while writes are
 * queued and the long-run rate is exactly the model's.
 */
export class FlashModel {
  private readonly pacer: Pacer;

  constructor(
    readonly bytesPerSecond: number,
    private readonly clock: Clock = monotonicClock,
    private readonly bufferMs = FLASH_WRITE_BUFFER_MS,
  ) {
    this.pacer = new Pacer(clock);
  }

  async write(bytes: number): Promise<void> {
    if (!Number.isFinite(this.bytesPerSecond)) return;
    const done = this.pacer.reserve(bytes / this.bytesPerSecond);
    const ahead = done - this.clock();
    if (ahead <= this.bufferMs) return;
    await new Promise((resolve) => setTimeout(resolve, ahead - this.bufferMs / 2));
  }
}
