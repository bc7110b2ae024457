import { readFile } from 'node:fs/promises';
import type { FleetDeviceSpec, FleetSpec } from '../fleet';

/**
 * A fleet file: `{ "defaults": { ...options }, "devices": [ { "deviceType": "EPC",
 * "serialNumber": "EPC000101", "link": "pty" }, ... ] }`, or just the array of devices. `type` and
 * `serial` are accepted for `deviceType` and `serialNumber`, as on the command line.
 */
export async function readFleetFile(path: string): Promise<Pick<FleetSpec, 'defaults' | 'devices'>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the fleet file ${path}: ${(error as Error).message}`);
  }
  const top = Array.isArray(json)
    ? { devices: json }
    : (json as { defaults?: FleetSpec['defaults']; devices?: unknown });
  if (!Array.isArray(top.devices) || top.devices.length === 0)
    throw new Error(`The fleet file ${path} lists no devices.`);
  const devices = top.devices.map((entry, index) => {
    const raw = entry as Record<string, unknown>;
    const { type, serial, ...rest } = raw;
    const device = {
      ...rest,
      deviceType: raw.deviceType ?? type,
      serialNumber: raw.serialNumber ?? serial,
      link: raw.link ?? 'pty',
    };
    if (typeof device.deviceType !== 'string' || typeof device.serialNumber !== 'string') {
      throw new Error(`Device ${index + 1} of ${path} needs "deviceType" and "serialNumber".`);
    }
    return device as FleetDeviceSpec;
  });
  return { defaults: top.defaults, devices };
}
