import type { CONFIGURATION_SETTING_KEYS } from './configuration';
import type { DeviceSettingKey } from './configuration-device';

/**
 * How fields are named in messages a technician reads. Every setting of a configuration and of a
 * device has a label (the compiler holds these tables to the domain's lists); other fields not
 * listed are named as in the interface.
 */
const CONFIGURATION_SETTING_LABELS = {
  name: 'Name',
  startingIpAddress: 'Starting IP address',
  ismTxPower: 'ISM transmit power',
  ismTxChannel: 'ISM channel',
  ismNetworkId: 'ISM network id',
  canMode: 'CAN mode',
  canKBitrate: 'CAN bitrate',
  displayTextPgn: 'Display text PGN',
  settingsPgn: 'Settings PGN',
  approvedSourceAddresses: 'Approved source addresses',
  receiverOutputControl: 'Receiver output control',
  timeoutConfiguration: 'Safety timeout',
} satisfies Record<(typeof CONFIGURATION_SETTING_KEYS)[number], string>;

const DEVICE_SETTING_LABELS = {
  ipAddress: 'IP address',
  deviceConfigurationType: 'Device role',
  commInterface: 'Communication interface',
  inputConfiguration1: 'Input 1',
  inputConfiguration2: 'Input 2',
  inputConfiguration3: 'Input 3',
  can0Id: 'CAN 0 id',
  can1Id: 'CAN 1 id',
  voltage: 'Voltage',
  serial0Usage: 'Serial 0 usage',
  serial1Usage: 'Serial 1 usage',
  serial0Baudrate: 'Serial 0 baud rate',
  serial1Baudrate: 'Serial 1 baud rate',
  stopCategory: 'Stop category',
  cat1StopDelay: 'CAT1 stop delay',
  ossdEnabled: 'OSSD pulses',
  ethNetmask: 'Ethernet netmask',
  ethGateway: 'Ethernet gateway',
  ethNameservers: 'Ethernet nameservers',
  wifiNetmask: 'Wifi netmask',
  wifiGateway: 'Wifi gateway',
  wifiNameservers: 'Wifi nameservers',
  wifiSsid: 'Wifi SSID',
  wifiPassword: 'Wifi password',
  networkTemplateId: 'Network template',
} satisfies Record<DeviceSettingKey, string>;

const OTHER_FIELD_LABELS: Record<string, string> = {
  serialNumber: 'Serial number',
  ipNetworkTemplateName: 'Template name',
  netmask: 'Netmask',
  gatewayIpAddress: 'Gateway',
  nameservers: 'Nameservers',
  ssid: 'SSID',
  password: 'Password',
  email: 'Email',
  userRole: 'User role',
  apiKey: 'API key',
  applyTimeStamp: 'Apply time stamp',
  syncId: 'Sync id',
  firmwareVersion: 'Firmware version',
  deviceImage: 'Device image',
};

const FIELD_LABELS: Record<string, string> = { ...CONFIGURATION_SETTING_LABELS, ...DEVICE_SETTING_LABELS, ...OTHER_FIELD_LABELS };

/** The label of a dotted field path: its last named segment ('approvedSourceAddresses.2' → 'Approved source addresses'). */
export function fieldLabel(field: string): string {
  const named = field
    .split('.')
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment))
    .at(-1);
  if (named === undefined) return 'The value';
  return FIELD_LABELS[named] ?? named;
}
