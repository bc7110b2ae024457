import { commInterfaceFlags } from './comm-interface';
import { CAN_MODE_LABELS, choiceList, DEVICE_ROLE_LABELS } from './choice-labels';
import type { ConfigurationSettings } from './configuration';
import type { ConfigurationMember } from './configuration-device';
import type { ConfigurationStatus } from './configuration-record';
import { supportsInterface } from './device-capabilities';
import { ENDPOINT_CONTROLLER_TYPES } from './device-types';
import { CAN_MODES, DEVICE_ROLES, SENDER_ROLES, type CommInterfaceFlag } from './enums';
import { assignIpAddresses } from './ip-assignment';
import { applyNetworkTemplate } from './network-template-apply';
import { devicePath, validateConfiguration, type ConfigurationContext } from './rules/configuration';
import { errorsOf, warningsOf, withSeverity } from './rules/rule-sources';
import { violation, type Violation, type ViolationCode } from './violations';

/**
 * Every validation rule, then what a complete configuration needs for the ways its devices
 * communicate; ours marked as warnings. Its errors are what stops the configuration files from
 * being produced: none means complete. This is what the service's status operation
 * (GET configurations/validate/{id}) reports, errors and warnings apart.
 *
 * Devices are looked at as the files would carry them: with their network template applied (when
 * ctx can look templates up) and with addresses assigned from startingIpAddress.
 */
export function checkConfigurationCompleteness(
  configuration: ConfigurationSettings,
  devices: readonly ConfigurationMember[],
  ctx: ConfigurationContext,
): Violation[] {
  const effective = effectiveDevices(configuration, devices, ctx);
  return withSeverity([
    ...validateConfiguration(configuration, devices, ctx),
    ...roleAndLinkCompleteness(effective),
    ...settingsCompleteness(configuration, effective),
    ...effective.flatMap(deviceCompleteness),
  ]);
}

export function configurationStatus(
  configurationId: string,
  configuration: ConfigurationSettings,
  devices: readonly ConfigurationMember[],
  ctx: ConfigurationContext,
): ConfigurationStatus {
  const found = checkConfigurationCompleteness(configuration, devices, ctx);
  const errors = errorsOf(found);
  const complete = errors.length === 0;
  return {
    configurationId,
    complete,
    errors,
    warnings: warningsOf(found),
    readyDevices: complete ? devices.map((d) => d.serialNumber) : [],
  };
}

/** The devices as their files would describe them (template applied, addresses assigned). */
export function effectiveDevices(
  configuration: ConfigurationSettings,
  devices: readonly ConfigurationMember[],
  ctx: Pick<ConfigurationContext, 'findNetworkTemplate'>,
): ConfigurationMember[] {
  const withTemplates = devices.map((device) => {
    const template =
      device.networkTemplateId != null && ctx.findNetworkTemplate
        ? ctx.findNetworkTemplate(device.networkTemplateId)
        : null;
    return template ? applyNetworkTemplate(device, template) : device;
  });
  const assigned = assignIpAddresses(configuration.startingIpAddress, withTemplates);
  return withTemplates.map((device) => {
    const address = assigned.get(device.serialNumber);
    return address ? { ...device, ipAddress: address } : device;
  });
}

/**
 * Devices on different links cannot talk. Ethernet and Wifi count as one link: both carry CoAP
 * over UDP on the site's IP network, which bridges wired and wireless.
 */
type Link = 'BLE' | 'ISM' | 'IP';
function links(commInterface: string | null | undefined): Set<Link> {
  const linkOf: Record<Exclude<CommInterfaceFlag, 'None'>, Link> = {
    BLE: 'BLE',
    ISM: 'ISM',
    Ethernet: 'IP',
    Wifi: 'IP',
  };
  return new Set(commInterfaceFlags(commInterface).map((f) => linkOf[f as Exclude<CommInterfaceFlag, 'None'>]));
}

/** A setting that something else needs, and what to tell the technician when it is not set. */
interface NeededSetting {
  missing: boolean;
  code: ViolationCode;
  field: string;
  message: string;
}

function missingSettings(needed: readonly NeededSetting[]): Violation[] {
  return needed.filter((n) => n.missing).map((n) => violation(n.code, n.field, n.message));
}

function roleAndLinkCompleteness(devices: readonly ConfigurationMember[]): Violation[] {
  const senders = devices.filter(
    (d) => d.deviceConfigurationType != null && SENDER_ROLES.includes(d.deviceConfigurationType),
  );
  const receivers = devices.filter((d) => d.deviceConfigurationType === 'Receiver');
  const found = missingSettings([
    {
      missing: senders.length === 0,
      code: 'NO_SENDER',
      field: 'devices',
      message: `The configuration has no sender: add a device with role ${DEVICE_ROLE_LABELS.Sender} or ${DEVICE_ROLE_LABELS.EStopSender}.`,
    },
    {
      missing: receivers.length === 0,
      code: 'NO_RECEIVER',
      field: 'devices',
      message: 'The configuration has no receiver: add a device with role Receiver.',
    },
    ...devices.flatMap((device): NeededSetting[] => [
      {
        missing: device.deviceConfigurationType == null,
        code: 'DEVICE_ROLE_MISSING',
        field: `${devicePath(device.serialNumber)}.deviceConfigurationType`,
        message: `Device ${device.serialNumber} has no role: set it to ${choiceList(DEVICE_ROLES.map((r) => DEVICE_ROLE_LABELS[r]))}.`,
      },
      {
        missing: links(device.commInterface).size === 0,
        code: 'COMM_INTERFACE_MISSING',
        field: `${devicePath(device.serialNumber)}.commInterface`,
        message: `Device ${device.serialNumber} has no communication interface: choose how it talks to the others (BLE, ISM, Ethernet or Wifi).`,
      },
    ]),
  ]);
  if (senders.length === 0 || receivers.length === 0) return found;
  return [
    ...found,
    ...unlinked(
      senders,
      receivers,
      'SENDER_WITHOUT_RECEIVER_LINK',
      (sender) =>
        `Sender ${sender.serialNumber} (${sender.commInterface}) shares no interface with any receiver: give it an interface a receiver uses, or add that interface to a receiver.`,
    ),
    ...unlinked(
      receivers,
      senders,
      'RECEIVER_WITHOUT_SENDER_LINK',
      (receiver) =>
        `Receiver ${receiver.serialNumber} (${receiver.commInterface}) shares no interface with any sender: give it an interface a sender uses.`,
    ),
  ];
}

/** The devices, among those with an interface, that share no link with any of the others; each reported at its interface. */
function unlinked(
  devices: readonly ConfigurationMember[],
  others: readonly ConfigurationMember[],
  code: ViolationCode,
  message: (device: ConfigurationMember) => string,
): Violation[] {
  const sharesLink = (device: ConfigurationMember) => {
    const mine = links(device.commInterface);
    return others.some((other) => [...links(other.commInterface)].some((link) => mine.has(link)));
  };
  return devices
    .filter((device) => links(device.commInterface).size > 0 && !sharesLink(device))
    .map((device) => violation(code, `${devicePath(device.serialNumber)}.commInterface`, message(device)));
}

function settingsCompleteness(
  configuration: ConfigurationSettings,
  devices: readonly ConfigurationMember[],
): Violation[] {
  const usesIsm = devices.some((d) => commInterfaceFlags(d.commInterface).includes('ISM'));
  const controllers = ENDPOINT_CONTROLLER_TYPES.filter((t) => devices.some((d) => d.deviceType === t));
  return missingSettings([
    {
      missing: configuration.timeoutConfiguration == null,
      code: 'TIMEOUT_CONFIGURATION_MISSING',
      field: 'timeoutConfiguration',
      message: 'The safety timeout is not set: choose how long receivers wait for a sender (250ms to 5000ms).',
    },
    {
      missing: usesIsm && configuration.ismTxChannel == null,
      code: 'ISM_CHANNEL_MISSING',
      field: 'ismTxChannel',
      message: 'Devices use the ISM radio but no ISM channel is set: choose a channel.',
    },
    {
      missing: usesIsm && configuration.ismTxPower == null,
      code: 'ISM_TX_POWER_MISSING',
      field: 'ismTxPower',
      message: 'Devices use the ISM radio but no transmit power is set: choose Low, Medium or High.',
    },
    {
      missing: controllers.length > 0 && configuration.canMode == null,
      code: 'CAN_MODE_MISSING',
      field: 'canMode',
      message: `The configuration has ${controllers.join(' and ')} devices but no CAN mode: choose ${choiceList(CAN_MODES.map((m) => CAN_MODE_LABELS[m]))}.`,
    },
    {
      missing:
        (configuration.canMode === 'canopen' || configuration.canMode === 'j1939') && configuration.canKBitrate == null,
      code: 'CAN_BITRATE_MISSING',
      field: 'canKBitrate',
      message: `CAN mode ${configuration.canMode} needs a CAN bitrate: choose one (EPC and NSCP devices take 250 or 500 kbit/s).`,
    },
  ]);
}

function deviceCompleteness(device: ConfigurationMember): Violation[] {
  const at = (field: string) => `${devicePath(device.serialNumber)}.${field}`;
  // An interface the type lacks is already reported; asking for its settings too would only add noise.
  const flags = commInterfaceFlags(device.commInterface).filter((f) => supportsInterface(device.deviceType, f));
  const nscp = device.deviceType === 'NSCP';
  return missingSettings([
    {
      missing: (flags.includes('Ethernet') || flags.includes('Wifi')) && !device.ipAddress,
      code: 'IP_ADDRESS_MISSING',
      field: at('ipAddress'),
      message: `Device ${device.serialNumber} uses ${flags.filter((f) => f === 'Ethernet' || f === 'Wifi').join(' and ')} but has no IP address: set one, or set the configuration's starting IP address so one is assigned.`,
    },
    {
      missing: flags.includes('Ethernet') && !device.ethNetmask,
      code: 'NETMASK_MISSING',
      field: at('ethNetmask'),
      message: `Device ${device.serialNumber} uses Ethernet but has no Ethernet netmask: set one (e.g. 255.255.255.0) or apply an Ethernet network template.`,
    },
    {
      missing: flags.includes('Wifi') && !device.wifiNetmask,
      code: 'NETMASK_MISSING',
      field: at('wifiNetmask'),
      message: `Device ${device.serialNumber} uses Wifi but has no Wifi netmask: set one (e.g. 255.255.255.0) or apply a Wifi network template.`,
    },
    {
      missing: flags.includes('Wifi') && !device.wifiSsid,
      code: 'WIFI_SSID_MISSING',
      field: at('wifiSsid'),
      message: `Device ${device.serialNumber} uses Wifi but no network name (SSID) is set: set the SSID or apply a Wifi network template.`,
    },
    {
      missing: nscp && device.stopCategory == null,
      code: 'STOP_CATEGORY_MISSING',
      field: at('stopCategory'),
      message: `NSCP ${device.serialNumber} has no stop category: choose CAT0 (outputs off at once) or CAT1 (output 2 off after a delay).`,
    },
    {
      missing: nscp && device.stopCategory === 'CAT1' && device.cat1StopDelay == null,
      code: 'CAT1_STOP_DELAY_MISSING',
      field: at('cat1StopDelay'),
      message: `NSCP ${device.serialNumber} uses stop category CAT1 but has no CAT1 stop delay: set how long output 2 stays on after output 1 turns off.`,
    },
  ]);
}
