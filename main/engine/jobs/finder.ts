import { findDevices, type DeviceSources, type FindOptions, type ProbeResult } from '../../devices';
import type { AttachedDevice, DeviceFinder } from './device-port';
import { identityOf } from './identity';

/**
 * The jobs' DeviceFinder over main/devices/discovery's single look (findDevices): USB serial ports
 * with the vendor's product id, the port globs, BLE peripherals during a short scan, and any link
 * given explicitly (UDP devices cannot be discovered). A given link that does not answer is listed
 * with the reason, as is a device of a type the jobs do not know.
 */
export type FinderOptions = DeviceSources & Pick<FindOptions, 'bleScanMs' | 'probeTimeoutMs'>;

export function createDeviceFinder(options: FinderOptions = {}): DeviceFinder {
  return {
    async list(call = {}): Promise<AttachedDevice[]> {
      const found = await findDevices(options, {
        ...(options.bleScanMs !== undefined ? { bleScanMs: options.bleScanMs } : {}),
        ...(options.probeTimeoutMs !== undefined ? { probeTimeoutMs: options.probeTimeoutMs } : {}),
        ...(call.extraLinks ? { links: call.extraLinks } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
      });
      return found.map(attachedDevice);
    },
  };
}

function attachedDevice(found: ProbeResult): AttachedDevice {
  const where = { link: found.link, linkKind: found.linkKind, ...(found.protocol ? { protocol: found.protocol } : {}) };
  if (!found.info) return { ...where, identity: null, error: found.error };
  try {
    return { ...where, identity: identityOf(found.info), error: null };
  } catch (error) {
    return { ...where, identity: null, error: error instanceof Error ? error.message : String(error) };
  }
}
