import { usesIp } from './comm-interface';
import type { ConfigurationDeviceSettings } from './configuration-device';
import { ipv4ToNumber, isHostAddress, numberToIpv4 } from './ipv4';

type AddressedDevice = Pick<
  ConfigurationDeviceSettings,
  'ipAddress' | 'commInterface' | 'ethNetmask' | 'wifiNetmask'
> & {
  serialNumber: string;
};

/**
 * Addresses for the devices that use Ethernet or Wifi but have no ipAddress, counted up from the
 * configuration's startingIpAddress in the order the devices are given. Addresses already taken in
 * the configuration are skipped, and so are network and broadcast addresses of the device's
 * netmask when it has one. Returns serial number → address; empty when the start is unusable.
 */
export function assignIpAddresses(
  startingIpAddress: string | null | undefined,
  devices: readonly AddressedDevice[],
): Map<string, string> {
  const assigned = new Map<string, string>();
  const start = startingIpAddress ? ipv4ToNumber(startingIpAddress) : null;
  if (start === null) return assigned;
  const taken = new Set(devices.map((d) => d.ipAddress).filter((ip): ip is string => !!ip));
  let next = start;
  for (const device of devices) {
    if (device.ipAddress || !usesIp(device.commInterface)) continue;
    const netmask = device.ethNetmask ?? device.wifiNetmask ?? null;
    while (next <= 0xffffffff) {
      const candidate = numberToIpv4(next);
      next += 1;
      if (taken.has(candidate)) continue;
      if (netmask && !isHostAddress(candidate, netmask)) continue;
      assigned.set(device.serialNumber, candidate);
      taken.add(candidate);
      break;
    }
  }
  return assigned;
}
