import { DEVICE_ERROR, DEVICE_ERROR_MORE } from '../../protocol/constants';
import { DeviceError } from './errors';
import { ReceivedRanges } from './received-ranges';

export interface ConfigUploadOptions {
  /** The device's configuration buffer. */
  maxSize: number;
  /** maxInFlight × maxBlockSize: how far past the contiguous offset a block may land. */
  windowBytes: number;
}

/**
 * Collects the blocks of a configuration file in RAM (docs/device-protocol.md 3.8), in any order
 * within the receive window. The file is whole once its length is known (Size1, or the block
 * without M) and every byte below it is in.
 */
export class ConfigUpload {
  private buffer: Uint8Array | null = null;
  private ranges = new ReceivedRanges();
  private total: number | null = null;

  constructor(private readonly options: ConfigUploadOptions) {}

  /** Returns the whole file once complete, otherwise undefined. */
  write(offset: number, bytes: Uint8Array, more: boolean, size1: number | undefined): Uint8Array | undefined {
    const { maxSize } = this.options;
    // A block 0 starts a new file, unless it is the first block 0 of the file in hand (blocks after
    // it may have overtaken it): then it belongs to this one.
    if (this.buffer === null || (offset === 0 && this.ranges.has(0, Math.max(1, bytes.length)))) this.start();
    if (size1 !== undefined) {
      if (size1 > maxSize) throw this.tooLarge(size1);
      this.total = size1;
    }
    const end = offset + bytes.length;
    const contiguous = this.ranges.contiguous;
    if (offset >= contiguous + this.options.windowBytes) {
      throw new DeviceError(
        DEVICE_ERROR_MORE.configOutOfWindow,
        `A block at byte ${offset} is beyond the receive window; continue from ${contiguous}.`,
        {
          offset: contiguous,
        },
      );
    }
    if (end > maxSize) throw this.tooLarge(end);
    if (!more) {
      if (this.total !== null && this.total !== end) {
        throw new DeviceError(
          DEVICE_ERROR.badRequest,
          `The last block ends at byte ${end}, but the file is ${this.total} bytes.`,
        );
      }
      this.total = end;
    }
    if (this.total !== null && end > this.total) {
      throw new DeviceError(
        DEVICE_ERROR.badRequest,
        `A block ending at byte ${end} lies past the end of the ${this.total}-byte file.`,
      );
    }
    this.buffer!.set(bytes, offset);
    const grown = this.ranges.add(offset, end);
    if (this.total === null || grown < this.total) return undefined;
    const file = this.buffer!.slice(0, this.total);
    this.buffer = null;
    return file;
  }

  /** A reboot loses RAM. */
  reset(): void {
    this.buffer = null;
  }

  private start(): void {
    this.buffer = new Uint8Array(this.options.maxSize);
    this.ranges = new ReceivedRanges();
    this.total = null;
  }

  private tooLarge(size: number): DeviceError {
    this.buffer = null;
    return new DeviceError(
      DEVICE_ERROR.configTooLarge,
      `The configuration file is ${size} bytes or more; this device takes at most ${this.options.maxSize}.`,
      {
        maxSize: this.options.maxSize,
      },
    );
  }
}
