import { describe, expect, it } from 'vitest';
import { encodeFrame, encodePlainFrame, FrameDecoder } from '../../../../protocol/framing';

/**
 * The vendor's USB framing is RFC 1055 SLIP without our CRC-32 trailer (docs/vendor-devices.md):
 * every whole frame is delivered, a damaged one as it arrived, and our CRC frames are not mistaken
 * for it nor it for ours.
 */
describe('plain SLIP frames (no CRC)', () => {
  const message = Uint8Array.from([0x40, 0x01, 0xc0, 0xdb, 0x12, 0x34]);

  it('escapes END and ESC, with a leading and a trailing END and no trailer', () => {
    expect([...encodePlainFrame(message)]).toEqual([0xc0, 0x40, 0x01, 0xdb, 0xdc, 0xdb, 0xdd, 0x12, 0x34, 0xc0]);
  });

  it('decodes frames split anywhere, and ignores empty frames', () => {
    const decoder = new FrameDecoder({ checksum: 'none' });
    const wire = Buffer.concat([
      encodePlainFrame(message),
      Buffer.from([0xc0, 0xc0]),
      encodePlainFrame(Uint8Array.of(7)),
    ]);
    const out = [...wire].flatMap((byte) => decoder.push(Uint8Array.of(byte)));
    expect(out.map((m) => [...m])).toEqual([[...message], [7]]);
  });

  it('delivers a damaged frame as it arrived: nothing at this layer can tell', () => {
    const frame = encodePlainFrame(message);
    frame[2]! ^= 0x01;
    const [delivered] = new FrameDecoder({ checksum: 'none' }).push(frame);
    expect(delivered?.[1]).toBe(0x00);
  });

  it('a CRC decoder drops a plain frame, and a plain decoder takes a CRC frame with its trailer', () => {
    expect(new FrameDecoder().push(encodePlainFrame(message))).toEqual([]);
    const [withTrailer] = new FrameDecoder({ checksum: 'none' }).push(encodeFrame(message));
    expect(withTrailer?.length).toBe(message.length + 4);
  });
});
