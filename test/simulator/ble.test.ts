import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import { CODE } from '../../main/devices/coap';
import { BLE_SERVICE_UUID } from '../../protocol/constants';
import { createSimulatedBleBindings, type SimulatedDevice } from '../../simulator';
import { announcement, scratchDir, testImage, uniqueSerial } from './helpers/fixtures';
import { connectTransport, nobleWith, scanFor } from './helpers/noble';
import { RawCoapClient } from './helpers/raw-client';
import { startDevice } from '../fixtures/simulated-device';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
const devices: SimulatedDevice[] = [];

beforeAll(async () => {
  scratch = await scratchDir('ble');
});
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await scratch.cleanup();
});

async function bleDevice(mtu: number): Promise<SimulatedDevice> {
  const serialNumber = uniqueSerial('WESP');
  const device = await startDevice(scratch.dir, {
    serialNumber,
    deviceType: 'WESP',
    link: 'ble',
    ble: { mtu, connectionIntervalMs: 7.5, packetsPerInterval: 6 },
    rebootMs: 100,
  });
  devices.push(device);
  return device;
}

describe('real noble against the simulated BLE bindings', () => {
  it('finds the device by its service UUID, connects, negotiates the MTU and answers an info request', async () => {
    const device = await bleDevice(185);
    const noble = nobleWith(createSimulatedBleBindings([device]));
    const peripheral = await scanFor(noble, `WESP-${device.descriptor.serialNumber}`);
    expect(peripheral.advertisement.serviceUuids).toContain(BLE_SERVICE_UUID);
    expect(peripheral.address).toBe(device.descriptor.bleAddress);
    expect(peripheral.connectable).toBe(true);

    const transport = await connectTransport(peripheral);
    // The central asked for 247, the peripheral takes at most 185.
    expect(transport.mtu).toBe(185);
    const client = new RawCoapClient(transport);
    const info = await client.getCbor('info');
    expect(info).toMatchObject({ serialNumber: device.descriptor.serialNumber, deviceType: 'WESP', protocol: 1 });
    // The info request was cut into MTU - 3 byte writes.
    expect(Math.max(...transport.writes)).toBeLessThanOrEqual(182);
    await transport.close();
  });

  it('carries a firmware upload at MTU 23 and drops the connection when the device reboots', async () => {
    const device = await bleDevice(247);
    const noble = nobleWith(createSimulatedBleBindings([device], { mtu: 23 }));
    const peripheral = await scanFor(noble, `WESP-${device.descriptor.serialNumber}`);
    const transport = await connectTransport(peripheral);
    expect(transport.mtu).toBe(23);
    expect(Math.max(...transport.writes, 0)).toBeLessThanOrEqual(20);
    const client = new RawCoapClient(transport);
    const image = testImage('WESP', '6.0.0', 3000);
    expect((await client.postCbor('fw', announcement(image))).code).toBe(CODE.CREATED);
    const { final } = await client.uploadBlock1('fw/data', image.image, { blockSize: 256, window: 2 });
    expect(final.code).toBe(CODE.CHANGED);
    const disconnected = new Promise<void>((resolve) => transport.onClose(resolve));
    const applied = await client.request({ method: CODE.POST, path: 'fw/apply' });
    expect(decodeCbor(applied.payload)).toEqual({ version: '6.0.0' });
    await disconnected;
    expect(peripheral.state).toBe('disconnected');

    // It advertises again after the reboot; reconnect and read the new version.
    await peripheral.connectAsync();
    const again = await connectTransport(peripheral, { connected: true });
    const info = await new RawCoapClient(again).getCbor('info');
    expect(info.firmwareVersion).toBe('6.0.0');
    await again.close();
  });
});
