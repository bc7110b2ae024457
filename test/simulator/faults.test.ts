import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import { CODE } from '../../main/devices/coap';
import { DeviceFaults } from '../../simulator/faults';
import { announcement, useScratchDir, testImage, uniqueSerial } from './helpers/fixtures';
import { RawCoapClient } from './helpers/raw-client';
import { startSerialSession } from './helpers/serial-session';

const scratch = useScratchDir('faults');

describe('fault injection', () => {
  it('is deterministic for a seed', () => {
    const fates = (seed: number) => {
      const faults = new DeviceFaults({ seed, drop: 0.2, corrupt: 0.1 }, 'EPC000101');
      return Array.from({ length: 200 }, (_, i) => faults.frameFate(i % 2 === 0 ? 'in' : 'out'));
    };
    expect(fates(42)).toEqual(fates(42));
    expect(fates(42)).not.toEqual(fates(43));
    const counts = fates(42).reduce<Record<string, number>>((c, f) => ({ ...c, [f]: (c[f] ?? 0) + 1 }), {});
    expect(counts.drop).toBeGreaterThan(10);
    expect(counts.corrupt).toBeGreaterThan(3);
  });

  it('drops and corrupts frames; CoAP retransmission still completes a correct upload', async () => {
    const session = await startSerialSession(
      scratch.dir,
      // The fates follow the serial number too (uniqueSerial differs per test process), so the rates
      // and the image are large enough that a run with no drop or no corruption is out of reach
      // (about 0.9^60): at 0.08 and 0.05 over 24 blocks, one run in ten corrupted nothing.
      { serialNumber: uniqueSerial('EPC'), faults: { seed: 7, drop: 0.1, corrupt: 0.1 } },
      { ackTimeoutMs: 150, retries: 10 },
    );
    try {
      const image = testImage('EPC', '7.0.0', 32_000);
      expect((await session.client.postCbor('fw', announcement(image))).code).toBe(CODE.CREATED);
      const { final } = await session.client.uploadBlock1('fw/data', image.image);
      expect(final.code).toBe(CODE.CHANGED);
      expect(await session.client.getCbor('fw')).toMatchObject({ state: 'received', received: image.image.length });
      expect(session.device.faultStats.dropped).toBeGreaterThan(0);
      expect(session.device.faultStats.corrupted).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  it('pulls the cable at a byte offset; the upload resumes from the acknowledged offset', async () => {
    const session = await startSerialSession(
      scratch.dir,
      { serialNumber: uniqueSerial('EPC'), faults: { pullAt: 5000, replugAfterMs: 300 } },
      { ackTimeoutMs: 100, retries: 2 },
    );
    try {
      const image = testImage('EPC', '7.1.0', 16_000);
      await session.client.postCbor('fw', announcement(image));
      const closed = new Promise<void>((resolve) => session.transport.onClose(resolve));
      await expect(session.client.uploadBlock1('fw/data', image.image)).rejects.toThrow(/no answer/);
      await closed;
      expect(session.device.faultStats.pulls).toBe(1);
      await session.reconnect();
      const client = new RawCoapClient(session.transport);
      const resumed = decodeCbor((await client.postCbor('fw', announcement(image))).payload) as { offset: number };
      expect(resumed.offset).toBeGreaterThan(0);
      expect(resumed.offset).toBeLessThanOrEqual(5000);
      expect(resumed.offset % 1024).toBe(0);
      const { final } = await client.uploadBlock1('fw/data', image.image, { startOffset: resumed.offset });
      expect(final.code).toBe(CODE.CHANGED);
      expect(session.device.state().upload).toMatchObject({ state: 'received' });
    } finally {
      await session.close();
    }
  });

  it('stalls for the given time at a byte offset, then carries on', async () => {
    const session = await startSerialSession(scratch.dir, {
      serialNumber: uniqueSerial('EPC'),
      faults: { stall: { ms: 600, atOffset: 3000 } },
    });
    try {
      const image = testImage('EPC', '7.2.0', 8000);
      await session.client.postCbor('fw', announcement(image));
      const sentAt = new Map<number, number>();
      const started = Date.now();
      const { final } = await session.client.uploadBlock1('fw/data', image.image, {
        window: 1,
        onBlock: (num) => sentAt.set(num, Date.now()),
      });
      expect(final.code).toBe(CODE.CHANGED);
      expect(session.device.faultStats.stalls).toBe(1);
      // Block 2 holds byte 3000: its exchange (until block 3 could be sent) spans the stall.
      expect(sentAt.get(3)! - sentAt.get(2)!).toBeGreaterThanOrEqual(600);
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      await session.close();
    }
  });

  it('cuts the power during apply: the device boots its old image and can apply again', async () => {
    const session = await startSerialSession(scratch.dir, {
      serialNumber: uniqueSerial('EPC'),
      faults: { powerCycleDuringApply: true },
    });
    try {
      const image = testImage('EPC', '7.3.0', 6000);
      await session.client.postCbor('fw', announcement(image));
      await session.client.uploadBlock1('fw/data', image.image);
      const bootId = session.device.state().bootId;
      const applied = await session.client.request({ method: CODE.POST, path: 'fw/apply' });
      expect(applied.code).toBe(CODE.CHANGED);
      await session.reconnect();
      const info = await session.client.getCbor('info');
      expect(info.firmwareVersion).toBe('1.0.0');
      expect(info.bootId).not.toBe(bootId);
      expect(await session.client.getCbor('fw')).toMatchObject({ state: 'received', received: image.image.length });
      expect(session.device.faultStats.powerCycles).toBe(1);

      const again = await session.client.request({ method: CODE.POST, path: 'fw/apply' });
      expect(again.code).toBe(CODE.CHANGED);
      await session.reconnect();
      expect((await session.client.getCbor('info')).firmwareVersion).toBe('7.3.0');
    } finally {
      await session.close();
    }
  });
});
