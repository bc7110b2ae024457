import { z } from 'zod';
import {
  CAN_MODES,
  ISM_TX_POWERS,
  TIMEOUT_CONFIGURATIONS,
  canKBitrateSchema,
  type CanKBitrate,
  type CanMode,
  type IsmTxPower,
  type TimeoutConfiguration,
} from './enums';
import {
  caseInsensitiveEnum,
  int32Field,
  ipv4Field,
  normalizedEnum,
  optionalField,
  trimmedText,
  withRule,
} from './fields';
import { checkConfigurationName, checkPgn, checkReceiverOutputControl, checkSourceAddress } from './rules/field-rules';

/**
 * timeoutConfiguration: canonical '1000ms'; sample payloads send the same values as integer
 * milliseconds (1000). Nothing else ('1000', '1s', 2000) is accepted.
 */
export const TIMEOUT_MILLISECONDS = [250, 500, 750, 1000, 3000, 5000] as const;
export const timeoutConfigurationField = normalizedEnum<
  typeof TIMEOUT_CONFIGURATIONS,
  TimeoutConfiguration | (typeof TIMEOUT_MILLISECONDS)[number]
>(
  TIMEOUT_CONFIGURATIONS,
  (input) => {
    const text = typeof input === 'number' && Number.isInteger(input) ? `${input}ms` : input;
    return TIMEOUT_CONFIGURATIONS.find((v) => v === text);
  },
  `${TIMEOUT_CONFIGURATIONS.join(', ')} (or the same number of milliseconds as an integer, e.g. 1000)`,
);

export const ismTxPowerField = caseInsensitiveEnum(ISM_TX_POWERS);
export const canModeField = caseInsensitiveEnum(CAN_MODES);

const configurationSettingsFields = {
  startingIpAddress: optionalField(ipv4Field),
  ismTxPower: optionalField(ismTxPowerField),
  ismTxChannel: optionalField(int32Field),
  /**
   * Not in the interface's table; sample create payloads send it. Stored as a setting of the
   * configuration (radio network id of its ISM devices), returned in the record, patchable. Its
   * range is ours, so validateConfigurationSettings warns of it instead of the payload refusing it.
   */
  ismNetworkId: optionalField(int32Field),
  canMode: optionalField(canModeField),
  // Sample payloads only use the enumerated names, so no variants are accepted.
  canKBitrate: optionalField(canKBitrateSchema),
  displayTextPgn: optionalField(withRule(int32Field, checkPgn)),
  settingsPgn: optionalField(withRule(int32Field, checkPgn)),
  approvedSourceAddresses: optionalField(z.array(withRule(int32Field, checkSourceAddress))),
  receiverOutputControl: optionalField(withRule(int32Field, checkReceiverOutputControl)),
  timeoutConfiguration: optionalField(timeoutConfigurationField),
};

const configurationNameField = trimmedText(checkConfigurationName);

/** POST configurations. Only name is required; unknown fields are refused (typos would be lost silently). */
export const configurationCreateSchema = z.strictObject({
  name: configurationNameField,
  ...configurationSettingsFields,
});
export type ConfigurationCreate = z.output<typeof configurationCreateSchema>;
export type ConfigurationCreateInput = z.input<typeof configurationCreateSchema>;

/** PATCH configurations/{id}. Every field optional; null means "leave as is" (see mergeConfigurationPatch). */
export const configurationPatchSchema = z.strictObject({
  name: optionalField(configurationNameField),
  ...configurationSettingsFields,
});
export type ConfigurationPatch = z.output<typeof configurationPatchSchema>;
export type ConfigurationPatchInput = z.input<typeof configurationPatchSchema>;

/**
 * The settings the rules look at: what a create payload, a merged patch or a stored record holds.
 * Absent and null both mean "not set".
 */
export type ConfigurationSettings = {
  name?: string | null | undefined;
  startingIpAddress?: string | null | undefined;
  ismTxPower?: IsmTxPower | null | undefined;
  ismTxChannel?: number | null | undefined;
  ismNetworkId?: number | null | undefined;
  canMode?: CanMode | null | undefined;
  canKBitrate?: CanKBitrate | null | undefined;
  displayTextPgn?: number | null | undefined;
  settingsPgn?: number | null | undefined;
  approvedSourceAddresses?: readonly number[] | null | undefined;
  receiverOutputControl?: number | null | undefined;
  timeoutConfiguration?: TimeoutConfiguration | null | undefined;
};

/**
 * The configuration's safety parameters: the settings every device of it must share, which each
 * device's configuration file carries in `safety` (the service builds it from this list).
 */
export const CONFIGURATION_SAFETY_KEYS = [
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
] as const satisfies readonly (keyof ConfigurationSettings)[];

/** Every setting of a configuration, in the order forms show them: its name, the address plan, the safety parameters. */
export const CONFIGURATION_SETTING_KEYS = [
  'name',
  'startingIpAddress',
  ...CONFIGURATION_SAFETY_KEYS,
] as const satisfies readonly (keyof ConfigurationSettings)[];
