import { join } from 'node:path';
import type { LinkOption, SimulatedDeviceOptions } from './options';
import { parseLink } from './parse-link';
import type { SimulatedDevice } from './simulated-device';
import { startSimulatedDevice } from './start-device';

/** One device of a fleet: its own options; `link` may be spelled as on the command line. */
export type FleetDeviceSpec = Omit<SimulatedDeviceOptions, 'stateDir' | 'publicKeyPem' | 'link'> & {
  link: LinkOption | string;
  /** Default `<fleet stateDir>/<serialNumber>`. */
  stateDir?: string;
  publicKeyPem?: string;
};

export interface FleetSpec {
  /** Root of the devices' state directories. */
  stateDir: string;
  publicKeyPem: string;
  /** Options every device gets unless its own spec says otherwise (faults, baudRate, ...). */
  defaults?: Partial<Omit<SimulatedDeviceOptions, 'deviceType' | 'serialNumber' | 'stateDir'>>;
  devices: FleetDeviceSpec[];
}

export interface SimulatedFleet {
  devices: SimulatedDevice[];
  stop(): Promise<void>;
}

/** Starts every device of the spec; if one fails, those already started are stopped again. */
export async function startFleet(spec: FleetSpec): Promise<SimulatedFleet> {
  const serials = new Set<string>();
  for (const device of spec.devices) {
    if (serials.has(device.serialNumber)) throw new Error(`The fleet lists ${device.serialNumber} twice.`);
    serials.add(device.serialNumber);
  }
  const devices: SimulatedDevice[] = [];
  try {
    for (const device of spec.devices) {
      const link = typeof device.link === 'string' ? parseLink(device.link) : device.link;
      devices.push(
        await startSimulatedDevice({
          ...spec.defaults,
          ...device,
          faults: { ...spec.defaults?.faults, ...device.faults },
          link,
          stateDir: device.stateDir ?? join(spec.stateDir, device.serialNumber),
          publicKeyPem: device.publicKeyPem ?? spec.publicKeyPem,
        }),
      );
    }
  } catch (error) {
    await Promise.allSettled(devices.map((d) => d.stop()));
    throw error;
  }
  return {
    devices,
    stop: async () => {
      await Promise.allSettled(devices.map((d) => d.stop()));
    },
  };
}
