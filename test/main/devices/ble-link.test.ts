import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder } from '../../../protocol/framing';
import type { BleCentral } from '../../../main/devices/links/ble-central';
import { BleLink } from '../../../main/devices/links/ble-link';
import { BLE_RX_CHARACTERISTIC_UUID, BLE_TX_CHARACTERISTIC_UUID } from '../../../protocol/constants';

/** Just enough of noble's Peripheral and Characteristic to watch what the link writes. */
function fakePeripheral(mtu: number) {
  const writes: Buffer[] = [];
  let release: (() => void) | undefined;
  const rx = {
    uuid: BLE_RX_CHARACTERISTIC_UUID,
    writeAsync: async (data: Buffer, withoutResponse: boolean) => {
      expect(withoutResponse).toBe(true);
      writes.push(Buffer.from(data));
      // Hold the first write so that several frames queue up behind it.
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    },
  };
  const tx = Object.assign(new EventEmitter(), {
    uuid: BLE_TX_CHARACTERISTIC_UUID,
    subscribeAsync: async () => undefined,
  });
  const peripheral = Object.assign(new EventEmitter(), {
    id: 'aabbccddeeff',
    address: 'aa:bb:cc:dd:ee:ff',
    mtu,
    connectAsync: async () => undefined,
    disconnectAsync: async () => undefined,
    discoverSomeServicesAndCharacteristicsAsync: async () => ({ services: [], characteristics: [rx, tx] }),
  });
  const central = { find: async () => peripheral } as unknown as BleCentral;
  return { central, peripheral, tx, writes, release: () => release?.() };
}

describe('BLE link', () => {
  it('packs queued frames back to back into writes of MTU - 3 bytes', async () => {
    const fake = fakePeripheral(247);
    const link = new BleLink({ id: 'AA:BB:CC:DD:EE:FF', central: fake.central });
    await link.open();
    expect(link.attMtu).toBe(247);
    const messages = [0, 1, 2].map((n) => new Uint8Array(300).fill(n + 1));
    for (const message of messages) link.send(message);
    await new Promise((resolve) => setImmediate(resolve));
    fake.release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fake.writes.every((w) => w.length <= 244)).toBe(true);
    // After the first write everything queued goes out in full packets, only the last one short.
    expect(fake.writes.slice(1, -1).every((w) => w.length === 244)).toBe(true);
    const stream = Buffer.concat(fake.writes);
    expect(Buffer.compare(stream, Buffer.concat(messages.map(encodeFrame)))).toBe(0);
    const decoded = new FrameDecoder().push(stream);
    expect(decoded.map((m) => m[0])).toEqual([1, 2, 3]);
  });

  it('holds a short last packet for the next frame when told one follows, and sends it short when none comes', async () => {
    const fake = fakePeripheral(247);
    const link = new BleLink({ id: 'aabbccddeeff', central: fake.central });
    await link.open();
    link.send(new Uint8Array(10));
    await new Promise((resolve) => setImmediate(resolve));
    fake.release();
    const first = encodeFrame(new Uint8Array(10)).length;
    const big = [encodeFrame(new Uint8Array(300).fill(7)).length, encodeFrame(new Uint8Array(300).fill(8)).length];
    // One full packet of the frame goes; the short rest waits for the next frame.
    link.send(new Uint8Array(300).fill(7), { moreFollows: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.writes.map((w) => w.length)).toEqual([first, 244]);
    link.send(new Uint8Array(300).fill(8), { moreFollows: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.writes.map((w) => w.length)).toEqual([first, 244, 244]);
    // Nothing follows: after the hold the rest goes out short.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.writes.map((w) => w.length)).toEqual([first, 244, 244, big[0]! + big[1]! - 488]);
    const frames = new FrameDecoder().push(Buffer.concat(fake.writes));
    expect(frames.map((f) => f.length)).toEqual([10, 300, 300]);
  });

  it('caps the MTU at 247 and delivers notified frames split anyhow', async () => {
    const fake = fakePeripheral(512);
    const link = new BleLink({ id: 'aabbccddeeff', central: fake.central });
    const received: Uint8Array[] = [];
    link.onMessage((m) => received.push(m));
    await link.open();
    expect(link.attMtu).toBe(247);
    const stream = Buffer.concat([encodeFrame(Uint8Array.from([1, 2, 3])), encodeFrame(Uint8Array.from([4, 5]))]);
    for (let i = 0; i < stream.length; i += 5) fake.tx.emit('data', stream.subarray(i, i + 5), true);
    expect(received.map((m) => [...m])).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('closes when the peripheral disconnects', async () => {
    const fake = fakePeripheral(23);
    const link = new BleLink({ id: 'aabbccddeeff', central: fake.central });
    await link.open();
    const closed = new Promise<void>((resolve) => link.onClose(() => resolve()));
    fake.peripheral.emit('disconnect');
    await closed;
    expect(link.isOpen).toBe(false);
    expect(() => link.send(new Uint8Array(4))).toThrow(/closed/);
  });
});
