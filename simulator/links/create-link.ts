import type { ResolvedDeviceOptions } from '../options';
import type { DeviceFaults } from '../faults';
import { BleLink } from './ble';
import type { DeviceLink } from './link';
import { PtyLink } from './pty';
import { UdpLink } from './udp';

export function createLink(options: ResolvedDeviceOptions, faults: DeviceFaults): DeviceLink {
  const { link } = options;
  if (link === 'pty') {
    return new PtyLink({
      hostPath: options.ptyPath,
      devicePath: options.devicePtyPath,
      baudRate: options.baudRate,
      faults,
      checksum: options.protocol === 'vendor' ? 'none' : 'crc32',
    });
  }
  if (link === 'ble')
    return new BleLink({
      serialNumber: options.serialNumber,
      deviceType: options.deviceType,
      ble: options.ble,
      faults,
    });
  return new UdpLink({ host: link.udp.host, port: link.udp.port, ...options.udp, faults });
}
