import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDevices, LiveDeviceList, type DeviceListEvent } from '../../../main/devices/discovery';
import { DeviceListState } from '../../../main/devices/discovery/device-list';
import {
  isProvisionerProductId,
  listSerialCandidates,
  portGlobRoot,
  portGlobsFromEnv,
} from '../../../main/devices/discovery/serial-candidates';
import { BleCentral } from '../../../main/devices/links/ble-central';
import { SerialLink } from '../../../main/devices/links/serial-link';
import { uploadConfiguration } from '../../../main/devices/operations/configuration';
import { DeviceSession } from '../../../main/devices/session';
import { createSimulatedBleBindings } from '../../../simulator';
import { startPtyRelay } from '../../fixtures/pty-relay';
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
    const dir = join(scratch.dir, 'ports');
    await mkdir(join(dir, 'ttyPROV-dir'), { recursive: true });
    await writeFile(join(dir, 'ttyPROV1'), '');
    await writeFile(join(dir, 'ttyPROV0'), '');
    await writeFile(join(dir, '.ttyPROV2.device'), '');
    await writeFile(join(dir, 'other'), '');
    // What a killed socat leaves: a link to a pty that is gone.
    await symlink(join(scratch.dir, 'no-such-pty'), join(dir, 'ttyPROV9'));
    const candidates = await listSerialCandidates({
      portGlobs: [join(dir, 'ttyPROV*'), '/dev/ttyACM0'],
      listPorts: async () => [
        { path: '/dev/ttyACM0', productId: 'd101', serialNumber: 'SRCP000001' },
        { path: '/dev/ttyUSB0', productId: '6001' },
        { path: '/dev/ttyS0' },
      ],
    });
    // USB by product id, then each glob's ports: no directory, no dot file, no dangling link, no duplicate.
    expect(candidates).toEqual([
      { path: '/dev/ttyACM0', source: 'usb', serialNumberHint: 'SRCP000001' },
      { path: join(dir, 'ttyPROV0'), source: 'glob' },
      { path: join(dir, 'ttyPROV1'), source: 'glob' },
    ]);
  });

  it('still lists the port globs when USB listing fails (no udevadm), and says why', async () => {
    const warnings: string[] = [];
    await writeFile(join(scratch.dir, 'ttyRS485'), '');
    const candidates = await listSerialCandidates({
      portGlobs: [join(scratch.dir, 'ttyRS*'), join(scratch.dir, 'absent', '*')],
      listPorts: async () => {
        throw new Error('spawn udevadm ENOENT');
      },
      onWarning: (m) => warnings.push(m),
    });
    expect(candidates).toEqual([{ path: join(scratch.dir, 'ttyRS485'), source: 'glob' }]);
    expect(warnings[0]).toMatch(/udevadm ENOENT.*udev/);
  });

  it('reads the port globs of $PROVISIONER_PORTS like PATH, and knows which directory to watch', () => {
    expect(
      portGlobsFromEnv({
        PROVISIONER_PORTS: ` /tmp/provisioner-simulator-1000/pty/*${delimiter}/dev/serial/by-id/usb-FTDI* ${delimiter}`,
      }),
    ).toEqual(['/tmp/provisioner-simulator-1000/pty/*', '/dev/serial/by-id/usb-FTDI*']);
    expect(portGlobsFromEnv({})).toEqual([]);
    expect(portGlobRoot('/tmp/provisioner-simulator-1000/pty/*')).toBe('/tmp/provisioner-simulator-1000/pty');
    expect(portGlobRoot('/dev/serial/by-id/usb-FTDI*')).toBe('/dev/serial/by-id');
    expect(portGlobRoot('/dev/tty{USB,ACM}*')).toBe('/dev');
    expect(portGlobRoot('/dev/ttyRS485')).toBe('/dev');
  });
});

/** A device as a probe lists it. */
const listedDevice = {
  serialNumber: 'EPC1',
  deviceType: 'EPC',
  model: 'EPC-E4',
  firmwareVersion: '1.0.0',
  configSyncId: null,
  link: 'serial:/dev/x',
  linkKind: 'serial' as const,
};

/** A list with a grace of 1 s on a clock the test sets, and what it says, as "type version". */
function listOnClock() {
  const clock = { now: 0 };
  const state = new DeviceListState(1000, () => clock.now);
  const events: string[] = [];
  state.on((e) => events.push(`${e.type} ${e.device.firmwareVersion}`));
  return { clock, state, events };
}

describe('device list state', () => {
  it('turns a short disappearance into changed and a long one into removed', () => {
    const { clock, state, events } = listOnClock();
    const device = listedDevice;
    state.present(device);
    state.missing(device.link);
    clock.now = 500;
    state.missing(device.link);
    state.present({ ...device, firmwareVersion: '2.0.0' });
    state.missing(device.link);
    clock.now = 2000;
    state.missing(device.link);
    expect(events).toEqual(['added 1.0.0', 'changed 2.0.0', 'removed 2.0.0']);
  });

  it('says returned only when the port itself went and came back within the grace, not for an unanswered probe', () => {
    const { clock, state, events } = listOnClock();
    const device = listedDevice;
    state.present(device);
    // A probe went unanswered, then the device answered the same: nothing to say.
    state.missing(device.link);
    state.present(device);
    // The port went (unplugged) and came back at once, the same device on it.
    state.missing(device.link, true);
    clock.now = 200;
    state.missing(device.link);
    state.present(device);
    // Back and answering: a later unanswered probe is not a return either.
    state.missing(device.link);
    state.present(device);
    expect(events).toEqual(['added 1.0.0', 'returned 1.0.0']);
  });
});

describe('live device list', () => {
  it('notices a simulated serial device being plugged, unplugged and reconfigured', async () => {
    const ptyDir = join(scratch.dir, 'live-sim');
    const serialNumber = uniqueSerial('EPC');
    const device = await startDevice(scratch.dir, { serialNumber, ptyDir });
    let busy = false;
    const list = new LiveDeviceList({
      serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] },
      pollIntervalMs: 200,
      graceMs: 300,
      isBusy: () => busy,
    });
    try {
      await list.start();
      expect(list.devices()).toEqual([
        expect.objectContaining({
          serialNumber,
          deviceType: 'EPC',
          firmwareVersion: '1.0.0',
          configSyncId: null,
          linkKind: 'serial',
        }),
      ]);
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

  it('says returned for a device unplugged and plugged in again within the grace, the port watched', async () => {
    const ptyDir = join(scratch.dir, 'live-replug');
    const serialNumber = uniqueSerial('EPC');
    const device = await startDevice(scratch.dir, { serialNumber, ptyDir });
    // Rounds only when the directory changes (the poll is an hour): what a loaded machine's slow rounds look like.
    const list = new LiveDeviceList({
      serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] },
      pollIntervalMs: 3_600_000,
      graceMs: 60_000,
    });
    try {
      await list.start();
      expect(list.devices().map((d) => d.serialNumber)).toEqual([serialNumber]);
      const seen: string[] = [];
      list.on((event) => seen.push(event.type));
      const returned = nextEvent(list, (e) => e.type === 'returned');
      await device.unplug();
      await device.plug();
      expect((await returned).device.serialNumber).toBe(serialNumber);
      expect(seen).toEqual(['returned']);
      expect(list.devices().map((d) => d.serialNumber)).toEqual([serialNumber]);
    } finally {
      await list.stop();
      await device.stop();
    }
  });

  it('lists an IP device given by address', async () => {
    const device = await startDevice(scratch.dir, {
      serialNumber: uniqueSerial('EPC'),
      link: { udp: { host: '127.0.0.1', port: 0 } },
    });
    const list = new LiveDeviceList({ serial: false });
    try {
      await list.start();
      await list.addTarget(`udp:127.0.0.1:${device.descriptor.port}`);
      expect(list.devices()).toEqual([
        expect.objectContaining({
          serialNumber: device.descriptor.serialNumber,
          link: `udp:127.0.0.1:${device.descriptor.port}`,
          linkKind: 'udp',
        }),
      ]);
    } finally {
      await list.stop();
      await device.stop();
    }
  });

  it('finds a BLE device by its service and confirms it with GET /info', async () => {
    const device = await startDevice(scratch.dir, {
      serialNumber: uniqueSerial('WESP'),
      deviceType: 'WESP',
      link: 'ble',
    });
    const central = BleCentral.create(createSimulatedBleBindings([device]));
    const list = new LiveDeviceList({ serial: false, ble: { central: () => central } });
    try {
      const added = nextEvent(list, (e) => e.type === 'added');
      await list.start();
      const event = await added;
      expect(event.device).toMatchObject({
        serialNumber: device.descriptor.serialNumber,
        deviceType: 'WESP',
        linkKind: 'ble',
      });
      expect(event.device.link).toMatch(/^ble:[0-9a-f]{12}$/);
    } finally {
      await list.stop();
      await device.stop();
    }
  });

  // Issue 32: behind a cut relay the port stays (the glob still lists it) while nothing answers.
  it(
    'drops a device whose port stays but no longer answers (a cut relay), and keeps one that answers',
    { timeout: 120_000 },
    async () => {
      const serialNumber = uniqueSerial('EPC');
      const device = await startDevice(scratch.dir, { serialNumber, ptyDir: join(scratch.dir, 'relayed-sim') });
      const relay = await startPtyRelay(join(scratch.dir, 'relay'), device.descriptor.path!);
      const list = new LiveDeviceList({
        serial: { portGlobs: [join(scratch.dir, 'relay', 'ports', '*')], listPorts: async () => [] },
        pollIntervalMs: 200,
        recheckIntervalMs: 500,
        graceMs: 300,
      });
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
    },
  );
});

describe('one look at what is attached', () => {
  it('asks the ports the globs match and the given links at once, once per port, and says why a link did not answer', async () => {
    const ptyDir = join(scratch.dir, 'find-sim');
    const onPty = await startDevice(scratch.dir, { serialNumber: uniqueSerial('EPC'), ptyDir });
    const onUdp = await startDevice(scratch.dir, {
      serialNumber: uniqueSerial('SRCP'),
      deviceType: 'SRCP',
      link: { udp: { host: '127.0.0.1', port: 0 } },
    });
    const nobody = join(scratch.dir, 'find-nobody');
    await writeFile(nobody, '');
    try {
      // The pty named as written by a person, with a baud rate: asked once, reported as written.
      const asWritten = `serial:${onPty.descriptor.path}@921600`;
      const udp = `udp:127.0.0.1:${onUdp.descriptor.port}`;
      const found = await findDevices(
        { serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] } },
        { links: [asWritten, udp, `serial:${nobody}`], probeTimeoutMs: 2000 },
      );
      const [first, second] = [onPty.descriptor.serialNumber, onUdp.descriptor.serialNumber].sort();
      expect(found.map((f) => f.info?.serialNumber ?? f.link)).toEqual([first, second, `serial:${nobody}`]);
      expect(found.find((f) => f.info?.serialNumber === onPty.descriptor.serialNumber)).toMatchObject({
        link: asWritten,
        linkKind: 'serial',
        error: null,
      });
      expect(found.find((f) => f.info?.serialNumber === onUdp.descriptor.serialNumber)).toMatchObject({
        link: udp,
        linkKind: 'udp',
        info: { deviceType: 'SRCP' },
      });
      expect(found[2]).toMatchObject({ info: null, error: expect.stringMatching(/.+/) });
    } finally {
      await onPty.stop();
      await onUdp.stop();
    }
  });
});
