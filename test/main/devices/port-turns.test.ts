import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveDeviceList, type DeviceListEvent } from '../../../main/devices/discovery';
import { probeLink } from '../../../main/devices/discovery/probe';
import { SerialLink } from '../../../main/devices/links/serial-link';
import { identify } from '../../../main/devices/operations/identify';
import { DeviceSession } from '../../../main/devices/session';
import { scratchDir, startDevice, uniqueSerial } from './helpers/simulated';

/**
 * A serial port is taken in turns within the app: the device list's probe and a job that starts on
 * the same port a moment later once both opened it; the second open failed on the port's lock
 * ("Cannot lock port") and a Workbench apply failed under CI load. Real ptys, a simulated EPC.
 */

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir('port-turns');
});
afterAll(async () => {
  await scratch.cleanup();
});

describe('a serial port taken in turns', () => {
  it('a job that opens the port while a probe holds it waits for the probe to let go, then talks to the device', async () => {
    const device = await startDevice(scratch.dir, {
      serialNumber: uniqueSerial('EPC'),
      ptyDir: join(scratch.dir, 'wait-sim'),
    });
    const path = device.descriptor.path!;
    const probe = new SerialLink({ path, whenPortInUse: 'fail' });
    const job = new SerialLink({ path });
    try {
      await probe.open();
      let jobOpened = false;
      const opening = job.open(AbortSignal.timeout(20_000)).then(() => (jobOpened = true));
      // While the probe asks, the job waits (it used to fail on the port's lock).
      expect((await identify(new DeviceSession(probe))).serialNumber).toBe(device.descriptor.serialNumber);
      expect(jobOpened).toBe(false);
      expect(job.isOpen).toBe(false);
      await probe.close();
      await opening;
      expect((await identify(new DeviceSession(job))).serialNumber).toBe(device.descriptor.serialNumber);
      // And a probe now finds the port taken at once, without waiting.
      await expect(new SerialLink({ path, whenPortInUse: 'fail' }).open()).rejects.toThrow(
        /is in use by another job or probe of this app/,
      );
    } finally {
      await job.close();
      await probe.close();
      await device.stop();
    }
  });

  it('a job that waits for the port gives up when its signal aborts, and the port stays usable', async () => {
    const device = await startDevice(scratch.dir, {
      serialNumber: uniqueSerial('EPC'),
      ptyDir: join(scratch.dir, 'abort-sim'),
    });
    const path = device.descriptor.path!;
    const holder = new SerialLink({ path });
    const waiter = new SerialLink({ path });
    try {
      await holder.open();
      const controller = new AbortController();
      const waiting = waiter.open(controller.signal);
      controller.abort(new Error('cancelled by the technician'));
      await expect(waiting).rejects.toThrow('cancelled by the technician');
      await holder.close();
      await waiter.open();
      expect((await identify(new DeviceSession(waiter))).serialNumber).toBe(device.descriptor.serialNumber);
    } finally {
      await waiter.close();
      await holder.close();
      await device.stop();
    }
  });

  it(
    'a probe of a port a job holds sends nothing and says it is in use; the list keeps the device',
    { timeout: 60_000 },
    async () => {
      const ptyDir = join(scratch.dir, 'held-sim');
      const device = await startDevice(scratch.dir, { serialNumber: uniqueSerial('EPC'), ptyDir });
      const link = `serial:${device.descriptor.path!}`;
      // The list does not know about the job (isBusy says no): the moment after its busy check.
      const list = new LiveDeviceList({
        serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] },
        pollIntervalMs: 100,
        recheckIntervalMs: 100,
        graceMs: 300,
      });
      const events: DeviceListEvent['type'][] = [];
      list.on((event) => events.push(event.type));
      const job = new SerialLink({ path: device.descriptor.path! });
      try {
        await list.start();
        expect(list.devices().map((d) => d.link)).toEqual([link]);
        await job.open();
        const session = new DeviceSession(job);
        const probed = await probeLink(link, { ackTimeoutMs: 300 });
        expect(probed).toMatchObject({ info: null, inUse: true });
        // The job talks to the device through many of the list's rounds: every answer reaches the job.
        for (let i = 0; i < 10; i++) {
          expect((await identify(session)).serialNumber).toBe(device.descriptor.serialNumber);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(list.devices().map((d) => d.link)).toEqual([link]);
        expect(events).toEqual(['added']);
      } finally {
        await job.close();
        await list.stop();
        await device.stop();
      }
    },
  );
});
