import { commInterfaceFlags, usesIp } from '../comm-interface';
import { INPUT_CONFIGURATION_LABELS } from '../choice-labels';
import type { ConfigurationSettings } from '../configuration';
import {
  ETHERNET_FIELDS,
  WIFI_FIELDS,
  NSCP_ONLY_FIELDS,
  type ConfigurationDeviceSettings,
} from '../configuration-device';
import { SUPPORTED_INTERFACES, TYPES_WITHOUT_INPUTS, supportsInterface } from '../device-capabilities';
import type { DeviceType } from '../device-types';
import type { CommInterfaceFlag, Region } from '../enums';
import { fieldLabel } from '../field-labels';
import type { IpNetworkTemplateSettings } from '../ip-network-template';
import { isHostAddress, isNetmask, sameSubnet } from '../ipv4';
import { violation, type Violation, type ViolationCode } from '../violations';
import { checkCanBitrateForTypes } from './configuration-settings';
import { checkCat1StopDelay, checkIpv4Address, checkNetmask } from './field-rules';
import { withSeverity } from './rule-sources';

export type ConfigurationDeviceContext = {
  deviceType: DeviceType;
  configuration: ConfigurationSettings;
  region: Region;
  /**
   * The template named by networkTemplateId, when the caller looked it up: null means not found,
   * undefined means not looked up (the template rules are then skipped).
   */
  networkTemplate?: IpNetworkTemplateSettings | null;
};

/** Every rule on one device of a configuration, ours marked as warnings. Unset fields break no rule here (see completeness). */
export function validateConfigurationDevice(
  device: ConfigurationDeviceSettings,
  ctx: ConfigurationDeviceContext,
): Violation[] {
  return withSeverity([
    ...deviceFieldRules(device, ctx),
    ...compact([
      ctx.configuration.canKBitrate
        ? checkCanBitrateForTypes(ctx.configuration.canKBitrate, [ctx.deviceType], '')
        : null,
    ]),
  ]);
}

/** The device rules without the configuration-wide CAN bitrate rule, which validateConfiguration reports once. */
export function deviceFieldRules(device: ConfigurationDeviceSettings, ctx: ConfigurationDeviceContext): Violation[] {
  return [
    ...addressFormats(device),
    ...interfaceRules(device, ctx.deviceType),
    ...inputRules(device, ctx.deviceType),
    ...nscpRules(device, ctx.deviceType),
    ...networkTemplateRules(device, ctx.networkTemplate),
  ];
}

function addressFormats(device: ConfigurationDeviceSettings): Violation[] {
  const found: (Violation | null)[] = [];
  for (const field of ['ipAddress', 'ethGateway', 'wifiGateway'] as const) {
    const value = device[field];
    if (value != null) found.push(checkIpv4Address(value, field));
  }
  for (const field of ['ethNetmask', 'wifiNetmask'] as const) {
    const value = device[field];
    if (value != null) found.push(checkNetmask(value, field));
  }
  for (const field of ['ethNameservers', 'wifiNameservers'] as const) {
    (device[field] ?? []).forEach((server, index) => found.push(checkIpv4Address(server, `${field}.${index}`)));
  }
  return compact(found);
}

function interfaceRules(device: ConfigurationDeviceSettings, deviceType: DeviceType): Violation[] {
  if (device.commInterface == null) return [];
  const flags = commInterfaceFlags(device.commInterface);
  const found: Violation[] = [];
  const unsupported = flags.filter((flag) => !supportsInterface(deviceType, flag));
  if (unsupported.length > 0) {
    found.push(
      violation(
        'INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE',
        'commInterface',
        `${deviceType} devices have no ${unsupported.join(' or ')} interface: choose ${orList(SUPPORTED_INTERFACES[deviceType])}.`,
      ),
    );
  }
  if (device.ipAddress != null && !usesIp(device.commInterface)) {
    found.push(
      violation(
        'IP_ADDRESS_WITHOUT_IP_INTERFACE',
        'ipAddress',
        'The device has an IP address but communicates without Ethernet or Wifi: add Ethernet or Wifi to its interface, or remove the address.',
      ),
    );
  }
  for (const { adapter, fields, code } of ADAPTER_FIELDS) {
    if (flags.includes(adapter)) continue;
    for (const field of fields.filter((f) => isSet(device[f]))) {
      found.push(
        violation(
          code,
          field,
          `${fieldLabel(field)} is only used over ${adapter}, and this device does not use ${adapter}: add ${adapter} to its interface, or remove the value.`,
        ),
      );
    }
  }
  found.push(...subnetRules(device, flags.includes('Ethernet') ? 'eth' : flags.includes('Wifi') ? 'wifi' : null));
  return found;
}

/** The device has one ipAddress; it belongs to the subnet of its Ethernet adapter, or of its Wifi adapter when it has no Ethernet. */
function subnetRules(device: ConfigurationDeviceSettings, adapter: 'eth' | 'wifi' | null): Violation[] {
  if (adapter === null || device.ipAddress == null) return [];
  const netmask = device[`${adapter}Netmask`];
  if (netmask == null || !isNetmask(netmask) || checkIpv4Address(device.ipAddress, '') !== null) return [];
  const found: Violation[] = [];
  if (!isHostAddress(device.ipAddress, netmask)) {
    found.push(
      violation(
        'IP_ADDRESS_NOT_A_HOST',
        'ipAddress',
        `${device.ipAddress} is the network or broadcast address of its subnet (netmask ${netmask}): choose another address for the device.`,
      ),
    );
  }
  const gatewayField = `${adapter}Gateway` as const;
  const gateway = device[gatewayField];
  if (gateway != null && checkIpv4Address(gateway, '') === null && !sameSubnet(device.ipAddress, gateway, netmask)) {
    found.push(
      violation(
        'GATEWAY_OUTSIDE_SUBNET',
        gatewayField,
        `Gateway ${gateway} is not on the device's subnet (${device.ipAddress} with netmask ${netmask}): the device could not reach it; correct the gateway, the address or the netmask.`,
      ),
    );
  }
  return found;
}

function inputRules(device: ConfigurationDeviceSettings, deviceType: DeviceType): Violation[] {
  if (!TYPES_WITHOUT_INPUTS.includes(deviceType)) return [];
  return (['inputConfiguration1', 'inputConfiguration2', 'inputConfiguration3'] as const)
    .filter((field) => device[field] != null && device[field] !== 'NOT_USED')
    .map((field) =>
      violation(
        'INPUT_MUST_BE_NOT_USED',
        field,
        `${deviceType} devices have no configurable inputs: set ${fieldLabel(field).toLowerCase()} to ${INPUT_CONFIGURATION_LABELS.NOT_USED}.`,
      ),
    );
}

function nscpRules(device: ConfigurationDeviceSettings, deviceType: DeviceType): Violation[] {
  if (deviceType !== 'NSCP') {
    return NSCP_ONLY_FIELDS.filter((field) => device[field] != null).map((field) =>
      violation(
        'NSCP_ONLY_FIELD',
        field,
        `${fieldLabel(field)} only applies to NSCP devices, not to ${deviceType} devices: remove it.`,
      ),
    );
  }
  const found: (Violation | null)[] = [];
  if (device.serial0Usage != null && device.serial0Usage === device.serial1Usage) {
    const other = device.serial0Usage === 'comms' ? 'control' : 'comms';
    found.push(
      violation(
        'SERIAL_USAGE_CONFLICT',
        'serial1Usage',
        `Serial 0 and serial 1 are both set to ${device.serial0Usage}: ${device.serial0Usage} can be on only one serial; set serial 1 to ${other} or leave it unset.`,
      ),
    );
  }
  if (
    device.stopCategory === 'CAT1' &&
    device.inputConfiguration2 != null &&
    device.inputConfiguration2 !== 'NOT_USED'
  ) {
    found.push(
      violation(
        'INPUT2_NOT_APPLICABLE_WITH_CAT1',
        'inputConfiguration2',
        `Input 2 is not available on an NSCP with stop category CAT1: set input 2 to ${INPUT_CONFIGURATION_LABELS.NOT_USED}, or use stop category CAT0.`,
      ),
    );
  }
  if (device.cat1StopDelay != null) {
    found.push(checkCat1StopDelay(device.cat1StopDelay, 'cat1StopDelay'));
    if (device.stopCategory !== 'CAT1') {
      found.push(
        violation(
          'CAT1_STOP_DELAY_WITHOUT_CAT1',
          'cat1StopDelay',
          'A CAT1 stop delay only applies with stop category CAT1: set the stop category to CAT1, or remove the delay.',
        ),
      );
    }
  }
  return compact(found);
}

function networkTemplateRules(
  device: ConfigurationDeviceSettings,
  template: IpNetworkTemplateSettings | null | undefined,
): Violation[] {
  if (device.networkTemplateId == null || template === undefined) return [];
  if (template === null) {
    return [
      violation(
        'NETWORK_TEMPLATE_NOT_FOUND',
        'networkTemplateId',
        'The network template does not exist in this organization: pick one of the listed templates.',
      ),
    ];
  }
  const flags = commInterfaceFlags(device.commInterface);
  if (template.commInterface === 'None' || (device.commInterface != null && !flags.includes(template.commInterface))) {
    const kind = template.commInterface === 'None' ? 'has no interface' : `is a ${template.commInterface} template`;
    return [
      violation(
        'NETWORK_TEMPLATE_INTERFACE_MISMATCH',
        'networkTemplateId',
        `The network template ${kind}, but the device does not use it: pick a template for an interface the device uses (${flags.filter((f) => f === 'Ethernet' || f === 'Wifi').join(', ') || 'none uses IP'}).`,
      ),
    ];
  }
  return [];
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** The settings of each network adapter, and the code that says one is set for an adapter the device does not use. */
const ADAPTER_FIELDS: readonly {
  adapter: CommInterfaceFlag;
  fields: readonly (keyof ConfigurationDeviceSettings)[];
  code: ViolationCode;
}[] = [
  { adapter: 'Ethernet', fields: ETHERNET_FIELDS, code: 'ETHERNET_FIELD_WITHOUT_ETHERNET' },
  { adapter: 'Wifi', fields: WIFI_FIELDS, code: 'WIFI_FIELD_WITHOUT_WIFI' },
];

function isSet(value: unknown): boolean {
  if (value == null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return value !== '';
}

function compact(found: (Violation | null)[]): Violation[] {
  return found.filter((v): v is Violation => v !== null);
}
