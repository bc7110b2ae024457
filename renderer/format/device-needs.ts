import type { AttachedDeviceView, DeviceNeeds } from '../../contract/index';

/** What an attached device needs, as one short line; and whether anything is needed at all. */
export function needsText(needs: DeviceNeeds | null): string {
  if (!needs) return 'Unknown';
  const parts: string[] = [];
  if (needs.firmware.needed) parts.push(needs.firmware.latestVersion ? `Firmware ${needs.firmware.latestVersion}` : 'Firmware update');
  if (needs.configuration.needed) parts.push('Configuration');
  if (parts.length > 0) return parts.join(' + ');
  // Nothing to do, or nothing known: say which.
  if (needs.firmware.latestVersion === null) return needs.firmware.reason ?? 'Latest firmware unknown';
  // A configuration step that cannot run has its own line under this one (the reason and "Add it").
  if (needs.configuration.blocked) return 'Firmware up to date';
  if (needs.configuration.syncId === null && needs.configuration.reason) return `Firmware up to date · ${needs.configuration.reason}`;
  return 'Up to date';
}

export function needsSomething(needs: DeviceNeeds | null): boolean {
  return Boolean(needs && (needs.firmware.needed || needs.configuration.needed));
}

/** The longer explanation for a tooltip. */
export function needsDetail(needs: DeviceNeeds | null): string {
  if (!needs) return 'The device has not been compared with the service yet.';
  return [needs.firmware.reason, needs.configuration.reason].filter(Boolean).join(' ');
}

/** Which protocol the device speaks, in words: ours is the rule, the vendor's is said (docs/vendor-devices.md). */
export function protocolText(device: Pick<AttachedDeviceView, 'protocol'>): string {
  return device.protocol === 'vendor' ? 'FORT protocol' : 'Provisioner protocol';
}

/** "USB ttyACM0", "IP 192.168.3.10:5683", "BLE AABBCC…": short enough for a table cell; the full address goes in a tooltip. */
export function linkText(device: Pick<AttachedDeviceView, 'linkKind' | 'address'>): string {
  const kind = device.linkKind === 'serial' ? 'USB' : device.linkKind === 'ble' ? 'BLE' : 'IP';
  const where = device.linkKind === 'serial' ? (device.address.split(/[\\/]/).pop() ?? device.address) : device.address;
  return `${kind} ${where}`;
}
