import { canModeLabel, deviceRoleLabel, inputConfigurationLabel } from '../../domain/choice-labels';
import { CAN_MODES, DEVICE_ROLES, INPUT_CONFIGURATIONS } from '../../domain/enums';
import { parameterGroupLabel, parameterLabel } from '../../domain/parameter-labels';
import { parameterDefinition } from '../../domain/running-parameters';
import { englishWords, type Words } from '../format/words';

/**
 * A parameter table's rows in the reader's language (the core names them in English, for the CLI
 * and --json): each parameter and its group from the row's key, through the domain's parameter
 * labels, so the Workbench, the Station and the reports name a parameter the same way; a value
 * that is a choice or yes/no in its reader's words. Every other value (figures, units, ids) is
 * data and stays as the core wrote it.
 */
export function rowsInWords<R extends { key: string; group: string; label: string }>(
  rows: readonly R[],
  words: Words,
): R[] {
  return rows.map((row) => {
    const named = {
      ...row,
      label: parameterLabel(row.key, words),
      group: parameterGroupLabel(parameterDefinition(row.key).group, words),
    };
    for (const field of ['intended', 'running'] as const) {
      const value = (row as Record<string, unknown>)[field];
      if (typeof value === 'string') Object.assign(named, { [field]: valueInWords(row.key, value, words) });
    }
    return named;
  });
}

/** The value as the core wrote it (the choice's English words, or the choice itself), turned back into the choice and said in the reader's words. */
function valueInWords(key: string, text: string, words: Words): string {
  const english = englishWords();
  if (text === english.t('domain:value.yes')) return words.t('domain:value.yes');
  if (text === english.t('domain:value.no')) return words.t('domain:value.no');
  if (key === 'device.role' || /^peer\..+\.role$/.test(key)) {
    const role = DEVICE_ROLES.find((r) => r === text || deviceRoleLabel(r, english) === text);
    if (role) return deviceRoleLabel(role, words);
  }
  if (key === 'can.mode') {
    const mode = CAN_MODES.find((m) => m === text || canModeLabel(m, english) === text);
    if (mode) return canModeLabel(mode, words);
  }
  if (/^safety\.input[123]$/.test(key)) {
    const input = INPUT_CONFIGURATIONS.find((i) => i === text || inputConfigurationLabel(i, english) === text);
    if (input) return inputConfigurationLabel(input, words);
  }
  return text;
}
