import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, FrameDecoder, SLIP_END } from '../../protocol/framing';
import { ReceivedRanges } from '../../simulator/device/received-ranges';
import { DeviceFaults } from '../../simulator/faults';
import { flipByte, FrameStream, splitAfterFrameEnds } from '../../simulator/links/frame-stream';
import { bleWireModel, serialWireModel, udpWireModel } from '../../simulator/wire/models';
import { Pacer } from '../../simulator/wire/pacer';
import { ScheduledQueue } from '../../simulator/wire/scheduled-queue';

afterEach(() => {
  vi.useRealTimers();
});

describe('wire models', () => {
  it('serial moves baud / 10 bytes per second', () => {
    const model = serialWireModel(921600);
    expect(model.bytesPerSecond).toBe(92160);
    expect(model.transmitSeconds(92160)).toBeCloseTo(1);
  });

  it('BLE costs one slot per packet of up to MTU - 3 bytes, full or not', () => {
    const model = bleWireModel({ mtu: 247, connectionIntervalMs: 15, packetsPerInterval: 4 });
    const slot = 0.015 / 4;
    expect(model.transmitSeconds(1)).toBeCloseTo(slot);
    expect(model.transmitSeconds(244)).toBeCloseTo(slot);
    expect(model.transmitSeconds(245)).toBeCloseTo(2 * slot);
    expect(model.bytesPerSecond).toBeCloseTo(244 / slot);
  });

  it('UDP adds its latency after the transmission time', () => {
    const model = udpWireModel({ bytesPerSecond: 1000, latencyMs: 5 });
    expect(model.transmitSeconds(500)).toBeCloseTo(0.5);
    expect(model.latencyMs).toBe(5);
  });
});

describe('Pacer', () => {
  it('queues chunks back to back on a virtual clock, so timer lateness never accumulates', () => {
    let now = 1000;
    const pacer = new Pacer(() => now);
    expect(pacer.reserve(0.01)).toBeCloseTo(1010);
    expect(pacer.reserve(0.01)).toBeCloseTo(1020);
    now = 1015; // a late caller: still behind the busy wire
    expect(pacer.reserve(0.01)).toBeCloseTo(1030);
    now = 2000; // idle wire: starts from now
    expect(pacer.reserve(0.001)).toBeCloseTo(2001);
  });

  it('stays exact at 921600 baud over a megabyte of small chunks', () => {
    const pacer = new Pacer(() => 0);
    const model = serialWireModel(921600);
    let end = 0;
    for (let i = 0; i < 1024; i++) end = pacer.reserve(model.transmitSeconds(1024));
    expect(end).toBeCloseTo((1024 * 1024 * 1000) / 92160, 6);
  });
});

describe('ScheduledQueue', () => {
  it('delivers in order, no earlier than each time, and holds everything during a stall', () => {
    vi.useFakeTimers();
    const clock = () => Date.now();
    const start = clock();
    const delivered: [string, number][] = [];
    const queue = new ScheduledQueue<string>((item) => delivered.push([item, clock() - start]), clock);
    queue.push(start + 10, 'a');
    queue.push(start + 20, 'b');
    queue.push(start + 20, 'c');
    vi.advanceTimersByTime(15);
    expect(delivered).toEqual([['a', 10]]);
    queue.hold(100);
    vi.advanceTimersByTime(50);
    expect(delivered).toHaveLength(1);
    vi.advanceTimersByTime(60);
    expect(delivered.map(([item]) => item)).toEqual(['a', 'b', 'c']);
    expect(delivered[1]![1]).toBeGreaterThanOrEqual(115);
  });

  it('forgets what is queued when cleared (a pulled cable)', () => {
    vi.useFakeTimers();
    const delivered: string[] = [];
    const queue = new ScheduledQueue<string>(
      (item) => delivered.push(item),
      () => Date.now(),
    );
    queue.push(Date.now() + 10, 'lost');
    queue.clear();
    vi.advanceTimersByTime(50);
    expect(delivered).toEqual([]);
    expect(queue.size).toBe(0);
  });
});

describe('FrameStream', () => {
  const message = new TextEncoder().encode('a CoAP message with \xc0 and \xdb inside');

  it('passes intact frames split anywhere', () => {
    const stream = new FrameStream(new DeviceFaults({}, 'EPC1'));
    const frame = encodeFrame(message);
    const out = [...stream.receive(frame.subarray(0, 7)), ...stream.receive(frame.subarray(7))];
    expect(out.map((m) => Buffer.from(m))).toEqual([Buffer.from(message)]);
  });

  it('corrupts frames so that the real decoder rejects their CRC', () => {
    const stream = new FrameStream(new DeviceFaults({ corrupt: 1 }, 'EPC1'));
    for (let i = 0; i < 20; i++) expect(stream.receive(encodeFrame(message))).toEqual([]);
    expect(stream.decoderStats.badCrc).toBe(20);
    expect(stream.decoderStats.badEscape).toBe(0);
  });

  it('drops frames in either direction', () => {
    const stream = new FrameStream(new DeviceFaults({ drop: 1 }, 'EPC1'));
    expect(stream.receive(encodeFrame(message))).toEqual([]);
    expect(stream.send(message)).toBeUndefined();
    expect(stream.decoderStats.badCrc).toBe(0);
  });

  it('corrupts outgoing frames so the host drops them', () => {
    const stream = new FrameStream(new DeviceFaults({ corrupt: 1, seed: 3 }, 'EPC1'));
    const decoder = new FrameDecoder();
    for (let i = 0; i < 20; i++) expect(decoder.push(stream.send(message)!)).toEqual([]);
    expect(decoder.stats.badCrc).toBe(20);
  });

  it('flips a byte without touching END or escapes', () => {
    const body = Uint8Array.from([0xdb, 0xdc, 0x01, 0xc0]);
    flipByte(body, 0, 0.5);
    expect(body[0]).toBe(0xdb);
    expect(body[1]).toBe(0xdc);
    expect(body[2]).not.toBe(0x01);
    expect(body[3]).toBe(0xc0);
  });

  it('cuts a chunk after each frame so frames are paced one by one', () => {
    const a = encodeFrame(Uint8Array.of(1, 2, 3));
    const b = encodeFrame(Uint8Array.of(4, 5));
    const chunk = new Uint8Array([...a, ...b, SLIP_END, 9]);
    const pieces = splitAfterFrameEnds(chunk);
    let end = 0;
    const boundaries = pieces.map((p) => (end += p.length));
    // A frame's trailing END travels with the next frame's leading END: both are on the wire then.
    expect(boundaries).toEqual([1, a.length + 1, a.length + b.length + 1, chunk.length]);
  });
});

describe('ReceivedRanges', () => {
  it('advances the contiguous offset over blocks that arrive out of order', () => {
    const ranges = new ReceivedRanges();
    expect(ranges.add(1024, 2048)).toBe(0);
    expect(ranges.add(3072, 4096)).toBe(0);
    expect(ranges.has(1024, 2048)).toBe(true);
    expect(ranges.add(0, 1024)).toBe(2048);
    expect(ranges.add(2048, 3072)).toBe(4096);
    expect(ranges.add(0, 1024)).toBe(4096);
  });
});
