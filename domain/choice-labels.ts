import { englishDomainWord, englishWords, type Words } from './domain-words';
import {
  CAN_MODES,
  DEVICE_ROLES,
  INPUT_CONFIGURATIONS,
  type CanMode,
  type DeviceRole,
  type InputConfiguration,
} from './enums';

/**
 * The interface's enum values as a technician reads them, in each language (the `domain`
 * catalogs, keys `choice.canMode.*`, `choice.role.*`, `choice.input.*`): the designer's dropdowns
 * show these, and every rule message that names a choice names it the same way ("CANopen", not
 * "canopen"), so the words in an error can be found in the list beside it.
 */

export function canModeLabel(mode: CanMode, words: Words = englishWords()): string {
  return words.t(`domain:choice.canMode.${mode}`);
}

export function deviceRoleLabel(role: DeviceRole, words: Words = englishWords()): string {
  return words.t(`domain:choice.role.${role}`);
}

export function inputConfigurationLabel(input: InputConfiguration, words: Words = englishWords()): string {
  return words.t(`domain:choice.input.${input}`);
}

/** Every label of each kind of choice in one language, for a dropdown or a value table. */
export function choiceLabels(words: Words = englishWords()): {
  canMode: Record<CanMode, string>;
  deviceRole: Record<DeviceRole, string>;
  inputConfiguration: Record<InputConfiguration, string>;
} {
  const table = <V extends string>(values: readonly V[], label: (value: V) => string) =>
    Object.fromEntries(values.map((v) => [v, label(v)])) as Record<V, string>;
  return {
    canMode: table(CAN_MODES, (m) => canModeLabel(m, words)),
    deviceRole: table(DEVICE_ROLES, (r) => deviceRoleLabel(r, words)),
    inputConfiguration: table(INPUT_CONFIGURATIONS, (i) => inputConfigurationLabel(i, words)),
  };
}

// The English tables, read from the English catalog (one source of words), for the rule messages
// and screens written before the translations.
export const CAN_MODE_LABELS: Record<CanMode, string> = Object.fromEntries(
  CAN_MODES.map((m) => [m, englishDomainWord(`choice.canMode.${m}`)]),
) as Record<CanMode, string>;

export const DEVICE_ROLE_LABELS: Record<DeviceRole, string> = Object.fromEntries(
  DEVICE_ROLES.map((r) => [r, englishDomainWord(`choice.role.${r}`)]),
) as Record<DeviceRole, string>;

export const INPUT_CONFIGURATION_LABELS: Record<InputConfiguration, string> = Object.fromEntries(
  INPUT_CONFIGURATIONS.map((i) => [i, englishDomainWord(`choice.input.${i}`)]),
) as Record<InputConfiguration, string>;

/**
 * "A, B or C" in the reader's language ("A, B oder C", "A、B 或 C"), through Intl.ListFormat so
 * that no language's "or" is hard-coded.
 */
export function choiceList(labels: readonly string[], words: Pick<Words, 'locale'> = { locale: 'en-GB' }): string {
  return new Intl.ListFormat(words.locale, { type: 'disjunction' }).format(labels);
}
