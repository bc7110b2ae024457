import fc from 'fast-check';
import { describe, it } from 'vitest';
import { MAX_FRAME_MESSAGE_SIZE } from '../../protocol/constants';
import { encodeFrame, FrameDecoder } from '../../protocol/framing';
import { assertFuzz, hostileBytes, withinMemory } from './fuzz-support';

/** Bytes fed to a decoder in pieces the link chose: cut points as fractions of the length. */
function fed(decoder: FrameDecoder, bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(from, point)));
    from = point;
  }
  return out;
}

/** A frame carries at least one byte besides its CRC (a CoAP message has four): an empty one is dropped as too short. */
const message = fc.uint8Array({ minLength: 1, maxLength: MAX_FRAME_MESSAGE_SIZE });
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 });
/** Frames as a link carries them: several back to back, SLIP special bytes likely. */
const frames = fc
  .array(
    fc.uint8Array({ maxLength: 64 }).map((m) => m.map((b) => (b % 5 === 0 ? 0xc0 : b % 7 === 0 ? 0xdb : b))),
    { minLength: 1, maxLength: 4 },
  )
  .map((messages) => Uint8Array.from(messages.flatMap((m) => [...encodeFrame(m)])));

describe('fuzz: SLIP + CRC-32 framing', () => {
  it('any message survives encoding and decoding whatever the chunking', () => {
    assertFuzz(
      fc.property(message, cuts, (m, c) => {
        const out = fed(new FrameDecoder(), encodeFrame(m), c);
        if (out.length !== 1 || Buffer.compare(out[0]!, m) !== 0) throw new Error(`got ${out.length} messages back`);
      }),
    );
  });

  it('random and mutated streams never throw, deliver only messages within the limit, and count what they drop', () => {
    assertFuzz(
      fc.property(hostileBytes(frames), cuts, (bytes, c) => {
        withinMemory(() => {
          const decoder = new FrameDecoder();
          const out = fed(decoder, bytes, c);
          if (out.some((m) => m.length > MAX_FRAME_MESSAGE_SIZE))
            throw new Error('a message over the limit was delivered');
          if (decoder.stats.frames !== out.length)
            throw new Error(`stats say ${decoder.stats.frames} frames, ${out.length} were delivered`);
        });
      }),
    );
  });

  it('after any line noise, the next intact frame is delivered', () => {
    assertFuzz(
      fc.property(fc.uint8Array({ maxLength: 2 * MAX_FRAME_MESSAGE_SIZE }), message, cuts, (noise, m, c) => {
        const decoder = new FrameDecoder();
        decoder.push(noise);
        const out = fed(decoder, encodeFrame(m), c);
        if (out.length !== 1 || Buffer.compare(out[0]!, m) !== 0) throw new Error('the frame after the noise was lost');
      }),
    );
  });
});
