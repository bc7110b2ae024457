import { BleCentral } from '../main/devices/links/ble-central';
import { BleLink } from '../main/devices/links/ble-link';
import type { Link } from '../main/devices/links/link';
import { SerialLink } from '../main/devices/links/serial-link';
import { UdpLink } from '../main/devices/links/udp-link';
import { createSimulatedBleBindings, type SimulatedDevice, type SimulatedDeviceOptions } from '../simulator';

/** One link of the benchmarks: how its simulated device is started and how the host reaches it. */
export interface LinkCase {
  name: string;
  device: Partial<SimulatedDeviceOptions>;
  connect(device: SimulatedDevice): Promise<Link>;
}

export const serial = (baudRate: number): LinkCase => ({
  name: `serial ${baudRate}`,
  device: { link: 'pty', baudRate },
  connect: async (device) => new SerialLink({ path: device.descriptor.path!, baudRate }),
});

export const ble = (mtu: number): LinkCase => ({
  name: `BLE MTU ${mtu}`,
  device: { link: 'ble', deviceType: 'WESP', ble: { mtu } },
  connect: async (device) =>
    new BleLink({
      id: device.descriptor.bleAddress!,
      central: await BleCentral.create(createSimulatedBleBindings([device], { mtu })),
    }),
});

export const udp: LinkCase = {
  name: 'UDP',
  device: { link: { udp: { host: '127.0.0.1', port: 0 } } },
  connect: async (device) => new UdpLink({ host: device.descriptor.host!, port: device.descriptor.port! }),
};
