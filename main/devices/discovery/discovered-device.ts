import type { LinkKind } from '../links/link';
import type { DeviceInfo } from '../operations/payloads';
import type { DeviceProtocol } from '../vendor/detect';

/** A device the host found and confirmed with GET /info: what a list row shows. */
export interface DiscoveredDevice {
  serialNumber: string;
  deviceType: string;
  model: string;
  firmwareVersion: string;
  configSyncId: string | null;
  /** How to reach it, as parseLinkSpec reads it: 'serial:/dev/ttyACM0', 'udp:10.0.0.5:5683', 'ble:…'. */
  link: string;
  linkKind: LinkKind;
  /** Which protocol it speaks: ours, or the vendor's (docs/vendor-devices.md). Absent: ours. */
  protocol?: DeviceProtocol;
}

export function discoveredFrom(
  info: DeviceInfo,
  link: string,
  linkKind: LinkKind,
  protocol: DeviceProtocol = 'provisioner',
): DiscoveredDevice {
  return {
    protocol,
    serialNumber: info.serialNumber,
    deviceType: info.deviceType,
    model: info.model,
    firmwareVersion: info.firmwareVersion,
    configSyncId: info.configSyncId,
    link,
    linkKind,
  };
}

/** Fields whose change a list reports as 'changed'. */
export function sameListing(a: DiscoveredDevice, b: DiscoveredDevice): boolean {
  return (
    a.serialNumber === b.serialNumber &&
    a.deviceType === b.deviceType &&
    a.model === b.model &&
    a.firmwareVersion === b.firmwareVersion &&
    a.configSyncId === b.configSyncId &&
    (a.protocol ?? 'provisioner') === (b.protocol ?? 'provisioner') &&
    a.link === b.link
  );
}
