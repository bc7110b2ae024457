import { crc32 } from 'node:zlib';
import { MAX_FRAME_MESSAGE_SIZE } from '../constants';
import { SLIP_END, SLIP_ESC, SLIP_ESC_END, SLIP_ESC_ESC, slipEscapedLength, slipEscapeInto } from './slip';

/** The CRC-32 trailer of every serial and BLE frame, little-endian. */
export const FRAME_CRC_SIZE = 4;

/**
 * Whether a frame carries the CRC-32 trailer: ours do ('crc32'); the vendor's USB framing
 * (docs/vendor-devices.md) is plain RFC 1055 SLIP with none ('none').
 */
export type FrameChecksum = 'crc32' | 'none';

/**
 * One serial/BLE frame: END | escaped(message || CRC-32 LE) | END. The leading END makes the
 * receiver drop whatever line noise preceded the frame instead of prefixing it to the message.
 */
export function encodeFrame(message: Uint8Array): Uint8Array {
  return encodeFrameWith(message, 'crc32');
}

/** The vendor's USB frame: END | escaped(message) | END, no checksum (RFC 1055 as it is). */
export function encodePlainFrame(message: Uint8Array): Uint8Array {
  return encodeFrameWith(message, 'none');
}

export function encodeFrameWith(message: Uint8Array, checksum: FrameChecksum): Uint8Array {
  const trailer = checksum === 'crc32' ? FRAME_CRC_SIZE : 0;
  const body = new Uint8Array(message.length + trailer);
  body.set(message);
  if (trailer > 0) new DataView(body.buffer).setUint32(message.length, crc32(message), true);
  const frame = new Uint8Array(slipEscapedLength(body) + 2);
  frame[0] = SLIP_END;
  const end = slipEscapeInto(body, frame, 1);
  frame[end] = SLIP_END;
  return frame;
}

export interface FrameDecoderStats {
  /** Frames delivered: CRC matched. */
  frames: number;
  /** Frames dropped because the CRC did not match or the frame was too short to carry one. */
  badCrc: number;
  /** Frames dropped because they grew past the largest message plus CRC. */
  oversize: number;
  /** Frames dropped because ESC was followed by something other than ESC_END or ESC_ESC. */
  badEscape: number;
}

export interface FrameDecoderOptions {
  /** Largest CoAP message accepted; longer frames are dropped. */
  maxMessageSize?: number;
  /**
   * 'none': frames carry no CRC-32 (the vendor's USB framing); every whole frame is delivered, and
   * a damaged one reaches CoAP as it arrived. Default 'crc32'.
   */
  checksum?: FrameChecksum;
}

/**
 * Incremental SLIP + CRC-32 decoder: feed it whatever chunks the link delivers (a byte, half a
 * frame, three frames) and it returns the CoAP messages of the frames that are whole and intact.
 * Damaged frames are dropped and counted; CoAP retransmission recovers them.
 */
export class FrameDecoder {
  readonly stats: FrameDecoderStats = { frames: 0, badCrc: 0, oversize: 0, badEscape: 0 };
  private readonly buffer: Uint8Array;
  private length = 0;
  private escaping = false;
  /** Set once the current frame is known bad: its remaining bytes are skipped up to the next END. */
  private discarding = false;
  private readonly trailer: number;

  constructor(options: FrameDecoderOptions = {}) {
    this.trailer = (options.checksum ?? 'crc32') === 'crc32' ? FRAME_CRC_SIZE : 0;
    this.buffer = new Uint8Array((options.maxMessageSize ?? MAX_FRAME_MESSAGE_SIZE) + this.trailer);
  }

  push(chunk: Uint8Array): Uint8Array[] {
    const messages: Uint8Array[] = [];
    for (let i = 0; i < chunk.length; i++) {
      let byte = chunk[i]!;
      if (byte === SLIP_END) {
        const message = this.endFrame();
        if (message) messages.push(message);
        continue;
      }
      if (this.discarding) continue;
      if (this.escaping) {
        this.escaping = false;
        if (byte === SLIP_ESC_END) byte = SLIP_END;
        else if (byte === SLIP_ESC_ESC) byte = SLIP_ESC;
        else {
          this.stats.badEscape++;
          this.discarding = true;
          continue;
        }
      } else if (byte === SLIP_ESC) {
        this.escaping = true;
        continue;
      }
      if (this.length === this.buffer.length) {
        this.stats.oversize++;
        this.discarding = true;
        continue;
      }
      this.buffer[this.length++] = byte;
    }
    return messages;
  }

  /** Forgets a partial frame, e.g. when the link is reopened. */
  reset(): void {
    this.length = 0;
    this.escaping = false;
    this.discarding = false;
  }

  private endFrame(): Uint8Array | undefined {
    const length = this.length;
    const discarded = this.discarding || this.escaping;
    this.reset();
    // Back-to-back ENDs (our leading END after a previous trailing END) are not frames.
    if (discarded || length === 0) return undefined;
    if (this.trailer === 0) {
      this.stats.frames++;
      return this.buffer.slice(0, length);
    }
    if (length <= FRAME_CRC_SIZE) {
      this.stats.badCrc++;
      return undefined;
    }
    const messageLength = length - FRAME_CRC_SIZE;
    const message = this.buffer.slice(0, messageLength);
    const expected = new DataView(this.buffer.buffer, this.buffer.byteOffset).getUint32(messageLength, true);
    if (crc32(message) !== expected) {
      this.stats.badCrc++;
      return undefined;
    }
    this.stats.frames++;
    return message;
  }
}
