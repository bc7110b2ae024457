import { encodeFrameWith, FrameDecoder, SLIP_END, SLIP_ESC, type FrameChecksum } from '../../protocol/framing';
import type { DeviceFaults } from '../faults';

/**
 * The device's end of a SLIP + CRC-32 byte stream (serial and BLE), with frame faults applied to
 * the raw escaped bytes, so a corrupted frame really fails the CRC check of the decoder and a
 * dropped frame really never reaches it. Pacing is the link's job: it knows what a chunk costs.
 */
export class FrameStream {
  private readonly decoder: FrameDecoder;
  /** Raw bytes of the frame being received, up to its END. */
  private segment: Uint8Array[] = [];
  private segmentLength = 0;

  /** `checksum` 'none': the vendor's plain SLIP, where a corrupted frame reaches CoAP as it is. */
  constructor(
    private readonly faults: DeviceFaults,
    private readonly checksum: FrameChecksum = 'crc32',
  ) {
    this.decoder = new FrameDecoder({ checksum });
  }

  /** Raw bytes from the wire → the CoAP messages of the intact frames they complete. */
  receive(chunk: Uint8Array): Uint8Array[] {
    const messages: Uint8Array[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== SLIP_END) continue;
      if (i > start) this.append(chunk.subarray(start, i));
      start = i + 1;
      const raw = this.takeSegment();
      if (raw.length === 0) continue;
      const fate = this.faults.frameFate('in');
      if (fate === 'drop') continue;
      if (fate === 'corrupt') flipByte(raw, this.faults.corruptionRoll(), this.faults.corruptionRoll());
      messages.push(...this.decoder.push(withEnds(raw)));
    }
    if (start < chunk.length) this.append(chunk.slice(start));
    return messages;
  }

  /** A CoAP message → the raw bytes to put on the wire, or undefined when the fault plan loses it. */
  send(message: Uint8Array): Uint8Array | undefined {
    const frame = encodeFrameWith(message, this.checksum);
    const fate = this.faults.frameFate('out');
    if (fate === 'drop') return undefined;
    if (fate === 'corrupt')
      flipByte(frame.subarray(1, frame.length - 1), this.faults.corruptionRoll(), this.faults.corruptionRoll());
    return frame;
  }

  /** Forget a partial frame: the link was unplugged or the device rebooted. */
  reset(): void {
    this.segment = [];
    this.segmentLength = 0;
    this.decoder.reset();
  }

  get decoderStats(): FrameDecoder['stats'] {
    return this.decoder.stats;
  }

  private append(bytes: Uint8Array): void {
    // Copy: serialport and noble may reuse their buffers after the callback returns.
    this.segment.push(bytes.slice());
    this.segmentLength += bytes.length;
  }

  private takeSegment(): Uint8Array {
    const out = new Uint8Array(this.segmentLength);
    let offset = 0;
    for (const part of this.segment) {
      out.set(part, offset);
      offset += part.length;
    }
    this.segment = [];
    this.segmentLength = 0;
    return out;
  }
}

function withEnds(raw: Uint8Array): Uint8Array {
  const out = new Uint8Array(raw.length + 2);
  out[0] = SLIP_END;
  out.set(raw, 1);
  out[raw.length + 1] = SLIP_END;
  return out;
}

/**
 * Flips bits of one byte of an escaped frame body, choosing a byte that is neither END nor part of
 * an escape and a result that is neither either, so the frame stays a frame and only its CRC fails.
 */
export function flipByte(body: Uint8Array, positionRoll: number, maskRoll: number): void {
  if (body.length === 0) return;
  const first = Math.floor(positionRoll * body.length);
  const mask = 1 + Math.floor(maskRoll * 255);
  for (let n = 0; n < body.length; n++) {
    const i = (first + n) % body.length;
    const byte = body[i]!;
    const flipped = byte ^ mask;
    const special = (b: number) => b === SLIP_END || b === SLIP_ESC;
    if (special(byte) || special(flipped) || (i > 0 && body[i - 1] === SLIP_ESC)) continue;
    body[i] = flipped;
    return;
  }
}

/**
 * Cuts a chunk after each END so each frame is paced as its own arrival: a 4 KiB read holding
 * four frames delivers the first when its own last byte would have arrived, not the chunk's.
 */
export function splitAfterFrameEnds(chunk: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < chunk.length; i++) {
    // A leading END right after a trailing one belongs with it: pacing cost is the same.
    if (chunk[i] === SLIP_END && chunk[i + 1] !== SLIP_END) {
      pieces.push(chunk.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < chunk.length) pieces.push(chunk.subarray(start));
  return pieces;
}
