import { Inflate } from 'fflate';
import { FileFormatError } from '../../domain/files/file-error';
import { FirmwarePatchApplier, type FirmwarePatchHeader } from '../../domain/files/firmware-patch';
import { DEVICE_ERROR_CODING } from '../../protocol/constants';
import { bytesToHex } from '../hex';
import { DeviceError } from './errors';

/**
 * Coded bytes handed to the inflater at a time: a whole block. Smaller slices bound what one push
 * decodes, but fflate copies its 32 KiB window at every push: 64-byte slices took 573 ms of CPU per
 * 45 KB image against 32 ms for 1024 (measured here), which a 921600 baud upload cannot afford.
 */
const INFLATE_SLICE = 1024;

export interface CodedStreamOptions {
  coding: 'deflate' | 'delta';
  windowBits: number;
  /** The decoded image's announced size. */
  imageSize: number;
  /** Stores decoded bytes, in order, into the staged bank. */
  write(offset: number, bytes: Uint8Array): Promise<void>;
  /** delta: reads the running slot. */
  readRunning(offset: number, length: number): Promise<Uint8Array>;
  /** delta: hex SHA-256 of the running image, null when the device does not know it. */
  runningSha256: string | null;
  /** delta: hex SHA-256 the announce named as the base. */
  baseSha256: string | null;
}

/**
 * The decoder of one coded upload, as a small device runs it: raw DEFLATE with the announced
 * window, then (delta) the patch applied against the running slot, the output written to the
 * staged bank as it comes. It holds the window, the block in hand and what that block decodes to;
 * `peakBytes` is that sum at its highest, the figure the link benchmark reports.
 */
export class CodedStream {
  private readonly inflater: Inflate;
  private readonly patch: FirmwarePatchApplier | null;
  /** Decoded chunks of the block in hand, waiting to be applied or written. */
  private inflated: Uint8Array[] = [];
  private decoded = 0;
  private peak = 0;

  constructor(private readonly options: CodedStreamOptions) {
    this.inflater = new Inflate((chunk) => {
      this.inflated.push(chunk);
    });
    this.patch =
      options.coding === 'delta'
        ? new FirmwarePatchApplier(options.readRunning, (header) => this.checkBase(header))
        : null;
  }

  /** Decoded image bytes written so far. */
  get decodedBytes(): number {
    return this.decoded;
  }

  get peakBytes(): number {
    return this.peak;
  }

  /**
   * Decodes the next coded bytes (in order) and writes what they yield. `last`: the stream ends
   * here, and must end exactly here with the whole image decoded.
   */
  async push(bytes: Uint8Array, last: boolean, heldBesides = 0): Promise<void> {
    // Fed in slices, as a device feeds its inflater from a receive buffer.
    for (let at = 0; ; at += INFLATE_SLICE) {
      const end = Math.min(at + INFLATE_SLICE, bytes.length);
      await this.pushSlice(bytes.subarray(at, end), last && end === bytes.length, bytes.length + heldBesides);
      if (end === bytes.length) break;
    }
    // A truncated stream already failed above: the inflater refuses a final push that ends mid-block.
    if (last) {
      if (this.patch !== null && !this.patch.complete) throw corrupt('the patch ends before the image is complete');
      if (this.decoded !== this.options.imageSize)
        throw corrupt(`it decodes to ${this.decoded} bytes, not the announced ${this.options.imageSize}`);
    }
  }

  /** `held`: the block in hand and any that arrived ahead of a gap (only on links that reorder). */
  private async pushSlice(slice: Uint8Array, last: boolean, held: number): Promise<void> {
    try {
      this.inflater.push(slice, last);
    } catch (error) {
      throw corrupt(`the DEFLATE stream does not decode (${(error as Error).message})`);
    }
    const inflated = this.inflated;
    this.inflated = [];
    const inflatedBytes = inflated.reduce((n, c) => n + c.length, 0);
    // The window stays with the inflater; the output is in hand until written (delta: and the base bytes read beside it).
    this.peak = Math.max(
      this.peak,
      2 ** this.options.windowBits + held + inflatedBytes * (this.patch === null ? 1 : 2),
    );
    for (const chunk of inflated) {
      const output = this.patch === null ? [chunk] : await this.applyPatch(chunk);
      for (const part of output) {
        if (this.decoded + part.length > this.options.imageSize)
          throw corrupt(`it decodes to more than the announced ${this.options.imageSize} bytes`);
        await this.options.write(this.decoded, part);
        this.decoded += part.length;
      }
    }
  }

  private async applyPatch(chunk: Uint8Array): Promise<Uint8Array[]> {
    try {
      return await this.patch!.push(chunk);
    } catch (error) {
      if (error instanceof FileFormatError && error.code === DEVICE_ERROR_CODING.codingCorrupt)
        throw new DeviceError(DEVICE_ERROR_CODING.codingCorrupt, error.message);
      throw error;
    }
  }

  /** The patch names its base; it must be what runs, and what the announce said. */
  private checkBase(header: FirmwarePatchHeader): void {
    const base = bytesToHex(header.baseSha256);
    if (
      this.options.runningSha256 === null ||
      base !== this.options.runningSha256 ||
      base !== this.options.baseSha256
    ) {
      throw new DeviceError(
        DEVICE_ERROR_CODING.baseMismatch,
        'The patch applies to another image than the one this device runs; send the full image.',
        {
          imageSha256: this.options.runningSha256 === null ? null : this.options.runningSha256,
        },
      );
    }
    if (header.targetSize !== this.options.imageSize)
      throw corrupt(`the patch builds ${header.targetSize} bytes, not the announced ${this.options.imageSize}`);
  }
}

function corrupt(what: string): DeviceError {
  return new DeviceError(
    DEVICE_ERROR_CODING.codingCorrupt,
    `The coded firmware stream is corrupt: ${what}. The running image is unchanged; announce and send the image again.`,
  );
}
