import { describe, expect, it } from 'vitest';
import { BleCentral } from '../../../main/devices/links/ble-central';
import { BleLink } from '../../../main/devices/links/ble-link';
import type { Link } from '../../../main/devices/links/link';
import { UdpLink } from '../../../main/devices/links/udp-link';
import { uploadConfiguration } from '../../../main/devices/operations/configuration';
import { applyFirmware, uploadFirmware } from '../../../main/devices/operations/firmware';
import { identify } from '../../../main/devices/operations/identify';
import { reboot } from '../../../main/devices/operations/reboot';
import { DeviceSession } from '../../../main/devices/session';
import { createSimulatedBleBindings, type SimulatedDevice, type SimulatedDeviceOptions } from '../../../simulator';
import { configFile, firmwareImage, serviceKeys, startDevice, uniqueSerial, useDeviceBench } from './helpers/simulated';
import { signedManifestFor } from '../../fixtures/release-key';

const bench = useDeviceBench('ble-udp');

type Attach = (
  options?: Partial<SimulatedDeviceOptions>,
) => Promise<{ device: SimulatedDevice; session: DeviceSession; link: Link }>;

/** BLE through the real noble code, on the simulator's bindings instead of an HCI socket. */
const attachBle: Attach = async (options = {}) => {
  const device = await startDevice(bench.dir, {
    serialNumber: uniqueSerial('WESP'),
    deviceType: 'WESP',
    link: 'ble',
    ...options,
  });
  const central = await BleCentral.create(createSimulatedBleBindings([device]));
  const link = new BleLink({ id: device.descriptor.bleAddress!, central });
  const session = await DeviceSession.open(link, { reconnectTimeoutMs: 30_000 });
  bench.keep(device, session);
  return { device, session, link };
};

const attachUdp: Attach = async (options = {}) => {
  const device = await startDevice(bench.dir, {
    serialNumber: uniqueSerial('EPC'),
    link: { udp: { host: '127.0.0.1', port: 0 } },
    ...options,
  });
  const link = new UdpLink({ host: device.descriptor.host!, port: device.descriptor.port! });
  const session = await DeviceSession.open(link, { reconnectTimeoutMs: 30_000 });
  bench.keep(device, session);
  return { device, session, link };
};

describe.each([
  ['BLE', attachBle],
  ['UDP', attachUdp],
])('host operations over %s', (_name, attach) => {
  it('identifies, uploads and applies firmware, and reads the version back after the reboot', async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    expect(info.serialNumber).toBe(device.descriptor.serialNumber);
    const image = firmwareImage('2.0.0', 48 * 1024, info.deviceType);
    await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '2.0.0',
      deviceType: info.deviceType,
    });
    expect(device.state().upload).toMatchObject({ state: 'received' });
    const after = await applyFirmware(session, { version: '2.0.0' });
    expect(after.firmwareVersion).toBe('2.0.0');
    expect(after.bootId).not.toBe(info.bootId);
  });

  it('applies a configuration and reads its syncId back', async () => {
    const { device, session } = await attach();
    const info = await identify(session);
    const { file, syncId } = configFile(device.descriptor.serialNumber, info.deviceType);
    const result = await uploadConfiguration(session, file, { publicKeyPem: serviceKeys.publicKeyPem });
    expect(result.info.configSyncId).toBe(syncId);
    expect(device.state().config?.syncId).toBe(syncId);
  });

  it('reboots and comes back', async () => {
    const { session } = await attach();
    const before = await identify(session);
    expect((await reboot(session)).bootId).not.toBe(before.bootId);
  });
});

describe('UDP specifics', () => {
  it('rides out a pulled Ethernet cable by retransmission alone (UDP has no connection to lose)', async () => {
    const device = await startDevice(bench.dir, {
      serialNumber: uniqueSerial('EPC'),
      link: { udp: { host: '127.0.0.1', port: 0 } },
      faults: { pullAt: 20 * 1024, replugAfterMs: 300 },
    });
    const link = new UdpLink({ host: device.descriptor.host!, port: device.descriptor.port! });
    // A short ACK_TIMEOUT so that a device ignoring retransmissions fails this test in seconds, not minutes.
    const session = await DeviceSession.open(link, { ackTimeoutMs: 300 });
    bench.keep(device, session);
    const image = firmwareImage('2.1.0', 40 * 1024);
    const result = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '2.1.0',
      deviceType: 'EPC',
    });
    expect(device.faultStats.pulls).toBe(1);
    expect(session.engine.stats.retransmissions).toBeGreaterThan(0);
    // docs/device-protocol.md §2: a request lost with the cable was not acted on, so its
    // retransmission is answered; no re-announce is needed.
    expect(result.announcedOffsets).toEqual([0]);
    expect(device.state().upload).toMatchObject({ state: 'received' });
  });
});

describe('BLE specifics', () => {
  it('resumes an upload from the acknowledged offset after a disconnect mid-way', async () => {
    const { device, session } = await attachBle({ faults: { pullAt: 20 * 1024, replugAfterMs: 300 } });
    const image = firmwareImage('2.1.0', 40 * 1024, 'WESP');
    const result = await uploadFirmware(session, image, {
      signedManifest: signedManifestFor(image),
      version: '2.1.0',
      deviceType: 'WESP',
    });
    expect(device.faultStats.pulls).toBe(1);
    expect(result.announcedOffsets).toHaveLength(2);
    expect(result.announcedOffsets[1]).toBeGreaterThan(0);
    expect(device.state().upload).toMatchObject({ state: 'received' });
  });

  it('uses the MTU the peripheral accepts', async () => {
    const { link, session } = await attachBle({ ble: { mtu: 185 } });
    await identify(session);
    expect((link as BleLink).attMtu).toBe(185);
  });
});
