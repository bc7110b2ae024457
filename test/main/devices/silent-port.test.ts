import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveDeviceList, type DeviceListEvent } from '../../../main/devices/discovery';
import { startPtyRelay } from '../../fixtures/pty-relay';
import { scratchDir, startDevice, uniqueSerial } from './helpers/simulated';

/**
 * Issue 32: the device list drops a link that no longer answers. Behind a cut relay the host's port
 * stays (the glob still lists it) while nothing answers: the list asks its idle devices again now
 * and then, and drops one that does not answer, as it drops a port that disappears.
 */

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir('silent-port');
});
afterAll(async () => {
  await scratch.cleanup();
});

function nextEvent(list: LiveDeviceList, predicate: (event: DeviceListEvent) => boolean): Promise<DeviceListEvent> {
  return new Promise((resolve) => {
    const off = list.on((event) => {
      if (predicate(event)) {
        off();
        resolve(event);
      }
    });
  });
}

describe('live device list', () => {
  it('drops a device whose port stays but no longer answers (a cut relay), and keeps one that answers', { timeout: 120_000 }, async () => {
    const serialNumber = uniqueSerial('EPC');
    const device = await startDevice(scratch.dir, { serialNumber, ptyDir: join(scratch.dir, 'sim') });
    const relay = await startPtyRelay(join(scratch.dir, 'relay'), device.descriptor.path!);
    const list = new LiveDeviceList({ serial: { portGlobs: [join(scratch.dir, 'relay', 'ports', '*')], listPorts: async () => [] }, pollIntervalMs: 200, recheckIntervalMs: 500, graceMs: 300 });
    const events: string[] = [];
    list.on((event) => events.push(event.type));
    try {
      await list.start();
      expect(list.devices()).toEqual([expect.objectContaining({ serialNumber, link: `serial:${relay.hostPort}` })]);
      // Asked again while it answers: it stays, unchanged.
      await new Promise((r) => setTimeout(r, 1500));
      expect(list.devices()).toHaveLength(1);
      expect(events).toEqual(['added']);

      const removed = nextEvent(list, (e) => e.type === 'removed');
      await relay.cut();
      expect((await removed).device.serialNumber).toBe(serialNumber);
      expect(list.devices()).toEqual([]);
    } finally {
      await list.stop();
      await relay.stop();
      await device.stop();
    }
  });
});
