import type { CONFIGURATION_SETTING_KEYS } from './configuration';
import type { DeviceSettingKey } from './configuration-device';
import { englishWords, type Words } from './domain-words';

/**
 * How fields are named in messages a technician reads, in each language (the `domain` catalogs,
 * keys `field.<name>`). Every setting of a configuration and of a device has a label (the compiler
 * holds these lists to the domain's); other fields not listed are named as in the interface.
 */
const CONFIGURATION_SETTING_FIELDS = [
  'name',
  'startingIpAddress',
  'ismTxPower',
  'ismTxChannel',
  'ismNetworkId',
  'canMode',
  'canKBitrate',
  'displayTextPgn',
  'settingsPgn',
  'approvedSourceAddresses',
  'receiverOutputControl',
  'timeoutConfiguration',
] as const;

const DEVICE_SETTING_FIELDS = [
  'ipAddress',
  'deviceConfigurationType',
  'commInterface',
  'inputConfiguration1',
  'inputConfiguration2',
  'inputConfiguration3',
  'can0Id',
  'can1Id',
  'voltage',
  'serial0Usage',
  'serial1Usage',
  'serial0Baudrate',
  'serial1Baudrate',
  'stopCategory',
  'cat1StopDelay',
  'ossdEnabled',
  'ethNetmask',
  'ethGateway',
  'ethNameservers',
  'wifiNetmask',
  'wifiGateway',
  'wifiNameservers',
  'wifiSsid',
  'wifiPassword',
  'networkTemplateId',
] as const;

const OTHER_FIELDS = [
  'serialNumber',
  'ipNetworkTemplateName',
  'netmask',
  'gatewayIpAddress',
  'nameservers',
  'ssid',
  'password',
  'email',
  'userRole',
  'apiKey',
  'applyTimeStamp',
  'syncId',
  'firmwareVersion',
  'deviceImage',
] as const;

// The compiler holds the lists to the domain's settings both ways: a setting added to the domain
// and not here (or named here and not there) is a type error.
type SameSet<A extends string, B extends string> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : false;
const listsAreComplete: [
  SameSet<(typeof CONFIGURATION_SETTING_KEYS)[number], (typeof CONFIGURATION_SETTING_FIELDS)[number]>,
  SameSet<DeviceSettingKey, (typeof DEVICE_SETTING_FIELDS)[number]>,
] = [true, true];
void listsAreComplete;

/** Every field with a label: its catalog key is `domain:field.<name>`. */
export const LABELLED_FIELDS: readonly string[] = [
  ...CONFIGURATION_SETTING_FIELDS,
  ...DEVICE_SETTING_FIELDS,
  ...OTHER_FIELDS,
];
const LABELLED = new Set(LABELLED_FIELDS);

/** The last named segment of a dotted field path ('approvedSourceAddresses.2' → 'approvedSourceAddresses'). */
function namedSegment(field: string): string | undefined {
  return field
    .split('.')
    .filter((segment) => segment !== '' && !/^\d+$/.test(segment))
    .at(-1);
}

/**
 * The label of a dotted field path in the reader's language: its last named segment
 * ('approvedSourceAddresses.2' → 'Approved source addresses', 'Zugelassene Quelladressen'). A
 * field with no label is named as in the interface.
 */
export function fieldLabel(field: string, words: Words = englishWords()): string {
  const named = namedSegment(field);
  if (named === undefined) return words.t('domain:field.unnamed');
  return LABELLED.has(named) ? words.t(`domain:field.${named}`) : named;
}
