import { constants, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ReadStream } from 'node:tty';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../../../protocol/framing';
import { SerialLink } from '../../../main/devices/links/serial-link';
import { startPtyPair, type PtyPair } from '../../../simulator/links/socat';
import { useScratchDirPerTest } from '../../fixtures/scratch';
import { fillThreadPool } from '../../fixtures/thread-pool';

/**
 * The serial link's system ports are read and written on the event loop (polled-port-binding.ts),
 * not on libuv's thread pool: a process whose pool is busy (slow file operations, zlib, crypto,
 * DNS) still talks to its devices. Real ptys through socat; the pool is filled with opens of FIFOs
 * that no one writes, each holding a pool thread until the test lets it go.
 */
const scratch = useScratchDirPerTest('polled-port');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The device's end of the pty pair, read on the event loop (a tty stream) and written directly. */
function openDeviceEnd(path: string): { frames: Uint8Array[]; arrived: (count: number) => Promise<void>; fd: number } {
  const fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
  const stream = new ReadStream(fd);
  const decoder = new FrameDecoder();
  const frames: Uint8Array[] = [];
  const waiters: (() => void)[] = [];
  stream.on('data', (chunk: Buffer) => {
    frames.push(...decoder.push(new Uint8Array(chunk)));
    for (const wake of waiters.splice(0)) wake();
  });
  cleanups.push(() => {
    stream.destroy();
  });
  const arrived = async (count: number) => {
    while (frames.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { frames, arrived, fd };
}

describe('serial link on a system port', () => {
  it('sends and receives while every thread of the pool is busy', async () => {
    const hostPath = join(scratch.dir, 'host');
    const pair: PtyPair = await startPtyPair(hostPath, join(scratch.dir, 'device'));
    cleanups.push(() => pair.stop());
    const device = openDeviceEnd(join(scratch.dir, 'device'));
    const link = new SerialLink({ path: hostPath, baudRate: 115200 });
    // Opening goes through the pool (bindings-cpp opens and configures the port there): before it fills.
    await link.open();
    cleanups.push(() => link.close());
    const received: Uint8Array[] = [];
    let wake: (() => void) | undefined;
    link.onMessage((message) => {
      received.push(message);
      wake?.();
    });

    const release = fillThreadPool(scratch.dir);
    cleanups.push(release);

    link.send(Uint8Array.from([0x40, 0x01, 0x12, 0x34]));
    await device.arrived(1);
    expect([...device.frames[0]!]).toEqual([0x40, 0x01, 0x12, 0x34]);

    writeSync(device.fd, encodeFrame(Uint8Array.from([0x60, 0x45, 0x12, 0x34])));
    while (received.length < 1) await new Promise<void>((resolve) => (wake = resolve));
    expect([...received[0]!]).toEqual([0x60, 0x45, 0x12, 0x34]);

    // Many frames each way, while the pool stays busy: none lost, in order.
    const count = 50;
    for (let i = 0; i < count; i += 1) link.send(Uint8Array.from([0x40, 0x02, 0, i]));
    for (let i = 0; i < count; i += 1) writeSync(device.fd, encodeFrame(Uint8Array.from([0x60, 0x44, 0, i])));
    await device.arrived(1 + count);
    while (received.length < 1 + count) await new Promise<void>((resolve) => (wake = resolve));
    expect(device.frames.slice(1).map((frame) => frame[3])).toEqual([...Array(count).keys()]);
    expect(received.slice(1).map((message) => message[3])).toEqual([...Array(count).keys()]);
    await release();
  });

  it('reports the port going away when the other end closes', async () => {
    const hostPath = join(scratch.dir, 'host');
    const pair = await startPtyPair(hostPath, join(scratch.dir, 'device'));
    const link = new SerialLink({ path: hostPath, baudRate: 115200 });
    await link.open();
    const closed = new Promise<Error | undefined>((resolve) => link.onClose(resolve));
    await pair.stop();
    await closed;
    expect(link.isOpen).toBe(false);
    expect(() => link.send(new Uint8Array(4))).toThrow(/closed/);
  });
});
