import { commInterfaceFlags, formatCommInterface, usesIp } from '../../domain/comm-interface';
import type { ConfigurationSettings } from '../../domain/configuration';
import {
  DEVICE_SETTING_KEYS,
  deviceAddSchema,
  deviceUpdateSchema,
  UPDATE_ONLY_DEVICE_SETTINGS,
  type ConfigurationDeviceSettings,
  type DeviceSettingKey,
  type DeviceUpdate,
} from '../../domain/configuration-device';
import { TYPES_WITHOUT_INPUTS } from '../../domain/device-capabilities';
import { ENDPOINT_CONTROLLER_TYPES, type DeviceType } from '../../domain/device-types';
import type { CommInterfaceFlag, Region } from '../../domain/enums';
import { mergeDevicePatch } from '../../domain/merge';
import { parsePayload } from '../../domain/parse';
import { validateConfigurationDevice } from '../../domain/rules/configuration-device';
import { errorsOf, warningsOf } from '../../domain/rules/rule-sources';
import type { Violation } from '../../domain/violations';
import { readerViolation } from '../components/violation-text';
import { englishWords, type Words } from '../../domain/domain-words';
import { listText, numberText, parseDecimal, parseInteger, parseTextList, type Parsed } from './text-values';
import { dedupeViolations, onFieldsNotRefused, parseJudgingTheRest } from './violations';

/** A device's settings in a configuration as the designer's inputs hold them: every setting the domain lists. */
export const DEVICE_FIELDS = DEVICE_SETTING_KEYS;
export type DeviceField = DeviceSettingKey;
/** Text per field; commInterface as the canonical flags text ('BLE,Ethernet'); ossdEnabled 'true'/'false'. */
export type DeviceDraft = Record<DeviceField, string>;

const UPDATE_ONLY: readonly DeviceField[] = UPDATE_ONLY_DEVICE_SETTINGS;

export function emptyDeviceDraft(): DeviceDraft {
  return Object.fromEntries(DEVICE_FIELDS.map((f) => [f, ''])) as DeviceDraft;
}

export function draftFromDevice(device: ConfigurationDeviceSettings): DeviceDraft {
  const draft = emptyDeviceDraft();
  for (const field of DEVICE_FIELDS) {
    const value = device[field];
    if (value === null || value === undefined) continue;
    draft[field] = Array.isArray(value)
      ? listText(value)
      : typeof value === 'number'
        ? numberText(value)
        : String(value);
  }
  if (draft.commInterface) draft.commInterface = formatCommInterface(commInterfaceFlags(draft.commInterface));
  return draft;
}

/**
 * The fields that mean something for this device: its type, its role, its interfaces and its stop
 * category decide. The designer shows these and nothing else, so an SRCP never offers NSCP serials.
 */
export function applicableDeviceFields(
  deviceType: DeviceType,
  draft: Pick<DeviceDraft, 'deviceConfigurationType' | 'commInterface' | 'stopCategory'>,
  mode: 'add' | 'edit',
): DeviceField[] {
  const flags = commInterfaceFlags(draft.commInterface || null);
  const fields: DeviceField[] = ['deviceConfigurationType', 'commInterface'];
  if (usesIp(draft.commInterface || null)) fields.push('ipAddress', 'networkTemplateId');
  if (!TYPES_WITHOUT_INPUTS.includes(deviceType)) {
    fields.push('inputConfiguration1');
    // An NSCP stopping in CAT1 has no input 2 (rule 2 of the interface).
    if (!(deviceType === 'NSCP' && draft.stopCategory === 'CAT1')) fields.push('inputConfiguration2');
    if (draft.deviceConfigurationType === 'EStopSender') fields.push('inputConfiguration3');
  }
  if (ENDPOINT_CONTROLLER_TYPES.includes(deviceType)) fields.push('can0Id', 'can1Id', 'voltage');
  if (deviceType === 'NSCP') {
    fields.push('stopCategory');
    if (draft.stopCategory === 'CAT1') fields.push('cat1StopDelay');
    fields.push('ossdEnabled', 'serial0Usage', 'serial0Baudrate', 'serial1Usage', 'serial1Baudrate');
  }
  if (flags.includes('Ethernet')) fields.push('ethNetmask', 'ethGateway', 'ethNameservers');
  if (flags.includes('Wifi')) fields.push('wifiSsid', 'wifiPassword', 'wifiNetmask', 'wifiGateway', 'wifiNameservers');
  return mode === 'add' ? fields.filter((f) => !UPDATE_ONLY.includes(f)) : fields;
}

export interface DeviceDraftCheck {
  payload: Record<string, unknown>;
  /** The interface's rules the draft breaks: Save waits until they are fixed. */
  violations: Violation[];
  /** Our own rules it breaks: shown, but they stop nothing (domain/rules/rule-sources.ts). */
  warnings: Violation[];
  changed: boolean;
}

/**
 * The add (or update) payload built from the applicable fields, checked with the domain: the
 * payload schema and the device rules against the configuration's settings and the region.
 */
export function checkDeviceDraft(
  draft: DeviceDraft,
  ctx: {
    mode: 'add' | 'edit';
    serialNumber: string;
    deviceType: DeviceType | null;
    stored: ConfigurationDeviceSettings | null;
    configuration: ConfigurationSettings;
    region: Region;
    /** The language of the messages the draft makes; English by default. */
    words?: Words;
  },
): DeviceDraftCheck {
  const words = ctx.words ?? englishWords();
  const found: Violation[] = [];
  const payload: Record<string, unknown> = {};
  const base = ctx.stored ? draftFromDevice(ctx.stored) : emptyDeviceDraft();
  const fields = ctx.deviceType
    ? applicableDeviceFields(ctx.deviceType, draft, ctx.mode)
    : (['deviceConfigurationType', 'commInterface'] as DeviceField[]);
  if (ctx.mode === 'add') {
    if (ctx.serialNumber.trim() === '')
      found.push(readerViolation('REQUIRED', 'serialNumber', words.t('designer:editor.chooseToAdd')));
    payload.serialNumber = ctx.serialNumber.trim();
  }
  for (const field of fields) {
    const text = draft[field];
    if (ctx.mode === 'edit' && text === base[field]) continue;
    if (text.trim() === '') continue;
    const value = toValue(field, text, words);
    if (!value.ok) found.push(value.violation);
    else payload[field] = value.value;
  }
  if (ctx.mode === 'add' && !payload.deviceConfigurationType) {
    found.push(
      readerViolation('DEVICE_ROLE_MISSING', 'deviceConfigurationType', words.t('designer:editor.roleMissing')),
    );
  }
  if (ctx.mode === 'add' && !payload.commInterface) {
    found.push(readerViolation('COMM_INTERFACE_MISSING', 'commInterface', words.t('designer:editor.interfaceMissing')));
  }
  const parsed = parseJudgingTheRest<ConfigurationDeviceSettings>(
    (body) => (ctx.mode === 'add' ? parsePayload(deviceAddSchema, body) : parsePayload(deviceUpdateSchema, body)),
    payload,
  );
  found.push(...parsed.refused);
  if (parsed.value && ctx.deviceType) {
    const merged = ctx.stored ? mergeDevicePatch(ctx.stored, parsed.value as DeviceUpdate) : parsed.value;
    found.push(
      ...onFieldsNotRefused(
        validateConfigurationDevice(merged, {
          deviceType: ctx.deviceType,
          configuration: ctx.configuration,
          region: ctx.region,
        }),
        parsed.refused,
      ),
    );
  }
  const changed = Object.keys(payload).some((k) => k !== 'serialNumber');
  const judged = dedupeViolations(found);
  return { payload, violations: errorsOf(judged), warnings: warningsOf(judged), changed };
}

function toValue(field: DeviceField, text: string, words: Words): Parsed<unknown> {
  switch (field) {
    case 'can0Id':
    case 'can1Id':
      return parseInteger(text, field, words);
    case 'cat1StopDelay':
      return parseDecimal(text, field, words);
    case 'ossdEnabled':
      return { ok: true, value: text === 'true' };
    case 'ethNameservers':
    case 'wifiNameservers':
      return { ok: true, value: parseTextList(text) };
    case 'wifiSsid':
    case 'wifiPassword':
      return { ok: true, value: text };
    default:
      return { ok: true, value: text.trim() };
  }
}

export function interfaceFlagsOf(draft: Pick<DeviceDraft, 'commInterface'>): CommInterfaceFlag[] {
  return commInterfaceFlags(draft.commInterface || null);
}
