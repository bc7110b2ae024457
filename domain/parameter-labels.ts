import { canModeLabel, deviceRoleLabel, inputConfigurationLabel } from './choice-labels';
import { englishWords, hasDomainWord, type Words } from './domain-words';
import {
  CAN_MODES,
  DEVICE_ROLES,
  INPUT_CONFIGURATIONS,
  type CanMode,
  type DeviceRole,
  type InputConfiguration,
} from './enums';
import { parameterDefinition, type ParameterGroup, type ParameterValue } from './running-parameters';

/**
 * The running-parameter table's words in the reader's language (the `domain` catalogs, keys
 * `parameter.<key>`, `parameterGroup.<group>`, `value.yes`/`value.no`): the Workbench's table, the
 * commissioning report and the shift report name a parameter the same way. Units are SI symbols
 * (ms, bit/s), written the same in all five languages, so they are not translated. The keys and
 * the values a device reports are data and stay as they are.
 */

const PEER_ROLE = /^peer\.(.+)\.role$/;

/** "Safety timeout", "Sicherheits-Timeout"; a peer's role names the peer; a key no one knows is shown as it is. */
export function parameterLabel(key: string, words: Words = englishWords()): string {
  if (hasDomainWord(`parameter.${key}`)) return words.t(`domain:parameter.${key}`);
  const peer = PEER_ROLE.exec(key);
  if (peer) return words.t('domain:parameter.peerRole', { serial: peer[1]! });
  return parameterDefinition(key).label;
}

export function parameterGroupLabel(group: ParameterGroup, words: Words = englishWords()): string {
  return words.t(`domain:parameterGroup.${group}`);
}

function isOneOf<V extends string>(values: readonly V[], value: string): value is V {
  return (values as readonly string[]).includes(value);
}

/** A choice's label when `key` names a parameter of choices and the value is one of them. */
function choiceText(key: string, value: string, words: Words): string | undefined {
  if ((key === 'device.role' || PEER_ROLE.test(key)) && isOneOf<DeviceRole>(DEVICE_ROLES, value))
    return deviceRoleLabel(value, words);
  if (key === 'can.mode' && isOneOf<CanMode>(CAN_MODES, value)) return canModeLabel(value, words);
  if (/^safety\.input[123]$/.test(key) && isOneOf<InputConfiguration>(INPUT_CONFIGURATIONS, value))
    return inputConfigurationLabel(value, words);
  return undefined;
}

/**
 * A value as the table shows it in the reader's language: '1000 ms', 'ja', '—' for unset, a
 * choice by its label ('Not-Halt-Schalter'). A value no label knows is shown as the device sent
 * it: a wrong value must stay visible as it is. Numbers are not grouped (a CAN id or a PGN is an
 * identifier, and 1000 ms must read the same as the device's 1000).
 */
export function parameterValueLabel(
  value: ParameterValue,
  unit: string,
  key: string | undefined,
  words: Words = englishWords(),
): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return words.t(value ? 'domain:value.yes' : 'domain:value.no');
  const choice = key !== undefined && typeof value === 'string' ? choiceText(key, value, words) : undefined;
  if (choice !== undefined) return choice;
  return unit === '' ? String(value) : `${value} ${unit}`;
}
