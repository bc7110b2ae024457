import type { ConfigurationSettings } from '../configuration';
import type { ConfigurationMember } from '../configuration-device';
import type { Region } from '../enums';
import type { IpNetworkTemplateSettings } from '../ip-network-template';
import { underField, violation, type Violation } from '../violations';
import { deviceFieldRules } from './configuration-device';
import { validateConfigurationSettings } from './configuration-settings';
import { withSeverity } from './rule-sources';

export type ConfigurationContext = {
  region: Region;
  /** Looks up a template by id; null when unknown. Without it, template rules are skipped. */
  findNetworkTemplate?: (id: string) => IpNetworkTemplateSettings | null;
};

/**
 * Every validation rule of a configuration with its devices: its settings, each device (fields
 * under 'devices.<serialNumber>'), and the rules across devices; ours marked as warnings. Its
 * errors are what a write (and its dry run) refuses. Does not say whether the configuration is
 * complete.
 */
export function validateConfiguration(
  configuration: ConfigurationSettings,
  devices: readonly ConfigurationMember[],
  ctx: ConfigurationContext,
): Violation[] {
  const found = validateConfigurationSettings(configuration, {
    region: ctx.region,
    deviceTypes: devices.map((d) => d.deviceType),
  });
  for (const device of devices) {
    const networkTemplate =
      device.networkTemplateId != null && ctx.findNetworkTemplate
        ? ctx.findNetworkTemplate(device.networkTemplateId)
        : undefined;
    found.push(
      ...underField(
        devicePath(device.serialNumber),
        deviceFieldRules(device, { deviceType: device.deviceType, configuration, region: ctx.region, networkTemplate }),
      ),
    );
  }
  found.push(...duplicateSerialNumbers(devices), ...duplicateIpAddresses(devices));
  return withSeverity(found);
}

export function devicePath(serialNumber: string): string {
  return `devices.${serialNumber}`;
}

function duplicateSerialNumbers(devices: readonly ConfigurationMember[]): Violation[] {
  const seen = new Set<string>();
  const found: Violation[] = [];
  for (const { serialNumber } of devices) {
    if (seen.has(serialNumber)) {
      found.push(
        violation(
          'DUPLICATE_SERIAL_NUMBER',
          devicePath(serialNumber),
          `Device ${serialNumber} is in the configuration twice: remove one.`,
        ),
      );
    }
    seen.add(serialNumber);
  }
  return found;
}

export function duplicateIpAddresses(
  devices: readonly Pick<ConfigurationMember, 'serialNumber' | 'ipAddress'>[],
): Violation[] {
  const owner = new Map<string, string>();
  const found: Violation[] = [];
  for (const { serialNumber, ipAddress } of devices) {
    if (!ipAddress) continue;
    const first = owner.get(ipAddress);
    if (first !== undefined && first !== serialNumber) {
      found.push(
        violation(
          'DUPLICATE_IP_ADDRESS',
          `${devicePath(serialNumber)}.ipAddress`,
          `IP address ${ipAddress} is already used by ${first} in this configuration: give each device its own address.`,
        ),
      );
    } else {
      owner.set(ipAddress, serialNumber);
    }
  }
  return found;
}
