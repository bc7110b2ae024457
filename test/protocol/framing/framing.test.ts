import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, SLIP_END, SLIP_ESC } from '../../../protocol/framing';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('encodeFrame', () => {
  it('wraps the message and its CRC-32 between END bytes and escapes END and ESC', () => {
    const message = bytes(0x40, SLIP_END, 0x01, SLIP_ESC, 0x02);
    const frame = encodeFrame(message);
    expect(frame[0]).toBe(SLIP_END);
    expect(frame[frame.length - 1]).toBe(SLIP_END);
    expect([...frame.subarray(1, 8)]).toEqual([0x40, 0xdb, 0xdc, 0x01, 0xdb, 0xdd, 0x02]);
    const crc = crc32(message);
    // The CRC follows little-endian; escape it the same way before comparing.
    const crcBytes = [crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24].flatMap((b) =>
      b === SLIP_END ? [0xdb, 0xdc] : b === SLIP_ESC ? [0xdb, 0xdd] : [b],
    );
    expect([...frame.subarray(8, frame.length - 1)]).toEqual(crcBytes);
    // No END inside the frame.
    expect(frame.subarray(1, frame.length - 1).includes(SLIP_END)).toBe(false);
  });

  it('uses the IEEE CRC-32 with the check value the protocol page gives', () => {
    const frame = encodeFrame(new TextEncoder().encode('123456789'));
    expect([...frame.subarray(10, 14)]).toEqual([0x26, 0x39, 0xf4, 0xcb]);
  });
});

describe('FrameDecoder', () => {
  const messages = [
    bytes(1, 2, 3, 4, 5),
    bytes(SLIP_END, SLIP_END, SLIP_ESC, 0),
    new Uint8Array(1088).map((_, i) => (i * 7) & 0xff),
  ];

  it('returns each message of a stream of frames, whatever the chunking', () => {
    const stream = Buffer.concat(messages.map(encodeFrame));
    for (const chunkSize of [1, 2, 3, 7, 64, 1000, stream.length]) {
      const decoder = new FrameDecoder();
      const out: Uint8Array[] = [];
      for (let i = 0; i < stream.length; i += chunkSize) out.push(...decoder.push(stream.subarray(i, i + chunkSize)));
      expect(out.map((m) => [...m])).toEqual(messages.map((m) => [...m]));
      expect(decoder.stats).toMatchObject({ frames: 3, badCrc: 0, oversize: 0 });
    }
  });

  it('drops a frame with a flipped bit and keeps the next one', () => {
    const first = encodeFrame(messages[0]!);
    first[3]! ^= 0x10;
    const decoder = new FrameDecoder();
    const out = decoder.push(Buffer.concat([first, encodeFrame(messages[1]!)]));
    expect(out.map((m) => [...m])).toEqual([[...messages[1]!]]);
    expect(decoder.stats).toMatchObject({ frames: 1, badCrc: 1 });
  });

  it('drops line noise before a frame, a truncated frame and a frame too short for a CRC', () => {
    const decoder = new FrameDecoder();
    const noise = bytes(0x11, 0x22, SLIP_END, 0x33, SLIP_END);
    const truncated = encodeFrame(messages[0]!).subarray(0, 5);
    const out = decoder.push(Buffer.concat([noise, truncated, encodeFrame(messages[0]!)]));
    expect(out.map((m) => [...m])).toEqual([[...messages[0]!]]);
    expect(decoder.stats.badCrc).toBe(3);
  });

  it('drops a frame with an invalid escape', () => {
    const decoder = new FrameDecoder();
    expect(decoder.push(bytes(SLIP_END, 1, 2, SLIP_ESC, 0x42, 3, 4, 5, 6, SLIP_END))).toEqual([]);
    expect(decoder.stats.badEscape).toBe(1);
    expect(decoder.push(encodeFrame(messages[0]!))).toHaveLength(1);
  });

  it('drops frames longer than the largest message without buffering them', () => {
    const decoder = new FrameDecoder({ maxMessageSize: 16 });
    expect(decoder.push(encodeFrame(new Uint8Array(17)))).toEqual([]);
    expect(decoder.stats.oversize).toBe(1);
    expect(decoder.push(encodeFrame(new Uint8Array(16)))).toHaveLength(1);
  });

  it('forgets a partial frame on reset', () => {
    const decoder = new FrameDecoder();
    const frame = encodeFrame(messages[0]!);
    decoder.push(frame.subarray(0, 4));
    decoder.reset();
    expect(decoder.push(frame.subarray(4))).toEqual([]);
    expect(decoder.push(frame)).toHaveLength(1);
  });
});
