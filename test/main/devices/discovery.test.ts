import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveDeviceList, type DeviceListEvent } from '../../../main/devices/discovery';
import { DeviceListState } from '../../../main/devices/discovery/device-list';
import { isProvisionerProductId, listSerialCandidates } from '../../../main/devices/discovery/serial-candidates';
import { BleCentral } from '../../../main/devices/links/ble-central';
import { SerialLink } from '../../../main/devices/links/serial-link';
import { uploadConfiguration } from '../../../main/devices/operations/configuration';
import { DeviceSession } from '../../../main/devices/session';
import { createSimulatedBleBindings } from '../../../simulator';
import { configFile, scratchDir, serviceKeys, startDevice, uniqueSerial } from './helpers/simulated';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => {
  scratch = await scratchDir('discovery');
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

describe('serial candidates', () => {
  it('recognizes the product id however the platform spells it', () => {
    for (const id of ['d101', 'D101', '0xd101', '0xD101']) expect(isProvisionerProductId(id)).toBe(true);
    for (const id of [undefined, '', 'd102', '6001']) expect(isProvisionerProductId(id)).toBe(false);
  });

  it('lists USB ports with product id 0xD101 and live simulator descriptors', async () => {
    const dir = join(scratch.dir, 'descriptors');
    await mkdir(dir, { recursive: true });
    const pty = join(scratch.dir, 'fake-pty');
    await writeFile(pty, '');
    const descriptor = (serialNumber: string, extra: Record<string, unknown>) =>
      writeFile(join(dir, `${serialNumber}.json`), JSON.stringify({ serialNumber, deviceType: 'EPC', model: 'EPC-E4', link: 'serial', path: pty, productId: 'd101', baudRate: 921600, pid: process.pid, ...extra }));
    await descriptor('EPC1', {});
    await descriptor('EPC2', { pid: 2 ** 22 + 12345 });
    await descriptor('EPC3', { path: join(scratch.dir, 'no-such-pty') });
    await writeFile(join(dir, 'broken.json'), '{');
    const candidates = await listSerialCandidates({
      simulatorDir: dir,
      listPorts: async () => [
        { path: '/dev/ttyACM0', productId: 'd101', serialNumber: 'SRCP000001' },
        { path: '/dev/ttyUSB0', productId: '6001' },
        { path: '/dev/ttyS0' },
      ],
    });
    expect(candidates).toEqual([
      { path: '/dev/ttyACM0', source: 'usb', serialNumberHint: 'SRCP000001' },
      { path: pty, baudRate: 921600, source: 'simulator', serialNumberHint: 'EPC1' },
    ]);
  });

  it('still lists the simulator when USB listing fails (no udevadm), and says why', async () => {
    const warnings: string[] = [];
    const candidates = await listSerialCandidates({
      simulatorDir: join(scratch.dir, 'absent'),
      listPorts: async () => {
        throw new Error('spawn udevadm ENOENT');
      },
      onWarning: (m) => warnings.push(m),
    });
    expect(candidates).toEqual([]);
    expect(warnings[0]).toMatch(/udevadm ENOENT.*udev/);
  });
});

describe('device list state', () => {
  it('turns a short disappearance into changed and a long one into removed', () => {
    let now = 0;
    const state = new DeviceListState(1000, () => now);
    const events: string[] = [];
    state.on((e) => events.push(`${e.type} ${e.device.firmwareVersion}`));
    const device = { serialNumber: 'EPC1', deviceType: 'EPC', model: 'EPC-E4', firmwareVersion: '1.0.0', configSyncId: null, link: 'serial:/dev/x', linkKind: 'serial' as const };
    state.present(device);
    state.missing(device.link);
    now = 500;
    state.missing(device.link);
    state.present({ ...device, firmwareVersion: '2.0.0' });
    state.missing(device.link);
    now = 2000;
    state.missing(device.link);
    expect(events).toEqual(['added 1.0.0', 'changed 2.0.0', 'removed 2.0.0']);
  });
});

describe('live device list', () => {
  it('notices a simulated serial device being plugged, unplugged and reconfigured', async () => {
    const descriptorDir = join(scratch.dir, 'live-sim');
    const serialNumber = uniqueSerial('EPC');
    const device = await startDevice(scratch.dir, { serialNumber, descriptorDir });
    let busy = false;
    const list = new LiveDeviceList({ serial: { simulatorDir: descriptorDir, listPorts: async () => [] }, pollIntervalMs: 200, graceMs: 300, isBusy: () => busy });
    try {
      await list.start();
      expect(list.devices()).toEqual([expect.objectContaining({ serialNumber, deviceType: 'EPC', firmwareVersion: '1.0.0', configSyncId: null, linkKind: 'serial' })]);
      const link = list.devices()[0]!.link;
      expect(link).toBe(`serial:${device.descriptor.path}`);

      const removed = nextEvent(list, (e) => e.type === 'removed');
      await device.unplug();
      expect((await removed).device.serialNumber).toBe(serialNumber);
      expect(list.devices()).toEqual([]);

      const added = nextEvent(list, (e) => e.type === 'added');
      await device.plug();
      expect((await added).device.serialNumber).toBe(serialNumber);

      // A job holds the port while it applies a configuration; afterwards it asks the list to look again.
      busy = true;
      const session = await DeviceSession.open(new SerialLink({ path: device.descriptor.path!, baudRate: 921600 }));
      const { file, syncId } = configFile(serialNumber);
      await uploadConfiguration(session, file, { publicKeyPem: serviceKeys.publicKeyPem });
      await session.close();
      busy = false;
      const changed = nextEvent(list, (e) => e.type === 'changed');
      await list.refresh(link);
      expect((await changed).device.configSyncId).toBe(syncId);
    } finally {
      await list.stop();
      await device.stop();
    }
  });

  it('lists an IP device given by address', async () => {
    const device = await startDevice(scratch.dir, { serialNumber: uniqueSerial('EPC'), link: { udp: { host: '127.0.0.1', port: 0 } } });
    const list = new LiveDeviceList({ serial: false });
    try {
      await list.start();
      await list.addTarget(`udp:127.0.0.1:${device.descriptor.port}`);
      expect(list.devices()).toEqual([expect.objectContaining({ serialNumber: device.descriptor.serialNumber, link: `udp:127.0.0.1:${device.descriptor.port}`, linkKind: 'udp' })]);
    } finally {
      await list.stop();
      await device.stop();
    }
  });

  it('finds a BLE device by its service and confirms it with GET /info', async () => {
    const device = await startDevice(scratch.dir, { serialNumber: uniqueSerial('WESP'), deviceType: 'WESP', link: 'ble' });
    const central = BleCentral.create(createSimulatedBleBindings([device]));
    const list = new LiveDeviceList({ serial: false, ble: { central: () => central } });
    try {
      const added = nextEvent(list, (e) => e.type === 'added');
      await list.start();
      const event = await added;
      expect(event.device).toMatchObject({ serialNumber: device.descriptor.serialNumber, deviceType: 'WESP', linkKind: 'ble' });
      expect(event.device.link).toMatch(/^ble:[0-9a-f]{12}$/);
    } finally {
      await list.stop();
      await device.stop();
    }
  });
});
