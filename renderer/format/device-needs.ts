import type { AttachedDeviceView, DeviceNeeds } from '../../contract/index';
import { englishWords, type Words } from './words';

/** What an attached device needs, as one short line; and whether anything is needed at all. */
export function needsText(needs: DeviceNeeds | null, words: Words = englishWords()): string {
  if (!needs) return words.t('workbench:needs.unknown');
  if (needs.firmware.needed || needs.configuration.needed) {
    const firmware = !needs.firmware.needed ? 'no' : needs.firmware.latestVersion ? 'version' : 'yes';
    return words.t('workbench:needs.some', {
      firmware,
      version: needs.firmware.latestVersion ?? '',
      configuration: needs.configuration.needed ? 'yes' : 'no',
    });
  }
  // Nothing to do, or nothing known: say which.
  if (needs.firmware.latestVersion === null) return needs.firmware.reason ?? words.t('workbench:needs.latestUnknown');
  // A configuration step that cannot run has its own line under this one (the reason and "Add it").
  if (needs.configuration.blocked) return words.t('workbench:needs.firmwareUpToDate');
  if (needs.configuration.syncId === null && needs.configuration.reason)
    return words.t('workbench:needs.firmwareUpToDateBut', { reason: needs.configuration.reason });
  return words.t('workbench:needs.upToDate');
}

export function needsSomething(needs: DeviceNeeds | null): boolean {
  return Boolean(needs && (needs.firmware.needed || needs.configuration.needed));
}

/** The longer explanation for a tooltip. */
export function needsDetail(needs: DeviceNeeds | null, words: Words = englishWords()): string {
  if (!needs) return words.t('workbench:needs.notCompared');
  return [needs.firmware.reason, needs.configuration.reason].filter(Boolean).join(' ');
}

/**
 * Why no configuration can be applied to a device, from its code (the core's sentence is English):
 * the core's reason stays for a code this renderer does not know yet.
 */
export function blockedText(
  blocked: { code: string; reason: string },
  serialNumber: string,
  words: Words = englishWords(),
): string {
  switch (blocked.code) {
    case 'DEVICE_NOT_REGISTERED':
      return words.t('workbench:blocked.notRegistered', { serial: serialNumber });
    case 'DEVICE_NOT_IN_CONFIGURATION':
      return words.t('workbench:blocked.notInConfiguration', { serial: serialNumber });
    case 'CONFIGURATION_INCOMPLETE':
      return words.t('workbench:blocked.incomplete', { serial: serialNumber });
    default:
      return blocked.reason;
  }
}

/** Two or more attached devices claim one serial number: said from the links, in the reader's words. */
export function sharedSerialText(
  serialNumber: string,
  links: readonly string[],
  words: Words = englishWords(),
): string {
  return words.t('workbench:sharedSerial.reason', {
    serial: serialNumber,
    count: links.length,
    links: links.join(', '),
  });
}

/** Which protocol the device speaks, in words: ours is the rule, the vendor's is said (docs/vendor-devices.md). */
export function protocolText(device: Pick<AttachedDeviceView, 'protocol'>, words: Words = englishWords()): string {
  return device.protocol === 'vendor' ? words.t('workbench:protocol.vendor') : words.t('workbench:protocol.ours');
}

/** "USB ttyACM0", "IP 192.168.3.10:5683", "BLE AABBCC…": short enough for a table cell; the full address goes in a tooltip. */
export function linkText(device: Pick<AttachedDeviceView, 'linkKind' | 'address'>): string {
  const kind = device.linkKind === 'serial' ? 'USB' : device.linkKind === 'ble' ? 'BLE' : 'IP';
  const where = device.linkKind === 'serial' ? (device.address.split(/[\\/]/).pop() ?? device.address) : device.address;
  return `${kind} ${where}`;
}
