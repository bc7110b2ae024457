import {
  CAN_K_BITRATES,
  CAN_MODES,
  DEVICE_ROLES,
  INPUT_CONFIGURATIONS,
  ISM_TX_POWERS,
  SERIAL_BAUDRATES,
  SERIAL_USAGES,
  STOP_CATEGORIES,
  TIMEOUT_CONFIGURATIONS,
  VOLTAGES,
  ENDPOINT_CONTROLLER_CAN_K_BITRATES,
} from '../../domain/enums';
import { canModeLabel, deviceRoleLabel, inputConfigurationLabel } from '../../domain/choice-labels';
import { englishWords, type Words } from '../../domain/domain-words';
import type { Option } from '../components/fields';

/**
 * Choices as a technician reads them, in the reader's language; the value is always the
 * interface's canonical name. Choices the domain names (roles, CAN modes, inputs) take the
 * domain's words, so a rule message and the dropdown beside it say the same.
 */

const opt = <V extends string>(values: readonly V[], label: (v: V) => string = (v) => v): Option<V>[] =>
  values.map((value) => ({ value, label: label(value) }));

export interface DesignerOptions {
  timeout: Option<(typeof TIMEOUT_CONFIGURATIONS)[number]>[];
  ismPower: Option<(typeof ISM_TX_POWERS)[number]>[];
  canMode: Option<(typeof CAN_MODES)[number]>[];
  canBitrate: Option<(typeof CAN_K_BITRATES)[number]>[];
  receiverOutput: Option<'1' | '2'>[];
  role: Option<(typeof DEVICE_ROLES)[number]>[];
  input: Option<(typeof INPUT_CONFIGURATIONS)[number]>[];
  voltage: Option<(typeof VOLTAGES)[number]>[];
  serialUsage: Option<(typeof SERIAL_USAGES)[number]>[];
  baudrate: Option<(typeof SERIAL_BAUDRATES)[number]>[];
  stopCategory: Option<(typeof STOP_CATEGORIES)[number]>[];
  ossd: Option<'true' | 'false'>[];
}

export function designerOptions(words: Words = englishWords()): DesignerOptions {
  const { t } = words;
  const number = new Intl.NumberFormat(words.locale, { useGrouping: false });
  return {
    // "250ms" → "250 ms": a unit symbol, the same in every language; the figure in the reader's digits.
    timeout: opt(TIMEOUT_CONFIGURATIONS, (v) => `${number.format(Number(v.replace('ms', '')))} ms`).map((o) => ({
      ...o,
      isData: true,
    })),
    ismPower: opt(ISM_TX_POWERS, (v) => t(`designer:option.power.${v}`)),
    canMode: opt(CAN_MODES, (v) => canModeLabel(v, words)),
    canBitrate: opt(CAN_K_BITRATES, (v) => {
      const kbit = Number(v.replace('BITRATE_', '')) / 1000;
      const rate =
        kbit >= 1000 ? t('designer:option.mbit', { rate: kbit / 1000 }) : t('designer:option.kbit', { rate: kbit });
      return ENDPOINT_CONTROLLER_CAN_K_BITRATES.includes(v) ? rate : t('designer:option.notEpcNscp', { rate });
    }),
    receiverOutput: [
      { value: '1', label: t('designer:option.output', { output: '1' }) },
      { value: '2', label: t('designer:option.output', { output: '2' }) },
    ],
    role: opt(DEVICE_ROLES, (v) => deviceRoleLabel(v, words)),
    input: opt(INPUT_CONFIGURATIONS, (v) => inputConfigurationLabel(v, words)),
    voltage: opt(VOLTAGES, (v) => v.replace('VOLTAGE_', '')),
    serialUsage: opt(SERIAL_USAGES, (v) =>
      v === 'comms' ? t('designer:option.serial.comms') : t('designer:option.serial.control'),
    ),
    baudrate: opt(SERIAL_BAUDRATES, (v) => t('designer:option.baud', { rate: v.replace('BAUDRATE_', '') })),
    stopCategory: opt(STOP_CATEGORIES, (v) =>
      v === 'CAT0' ? t('designer:option.stop.CAT0') : t('designer:option.stop.CAT1'),
    ),
    ossd: [
      { value: 'true', label: t('designer:option.enabled') },
      { value: 'false', label: t('designer:option.disabled') },
    ],
  };
}

// The English lists, for callers and tests written before the translations.
const ENGLISH = designerOptions();
export const TIMEOUT_OPTIONS = ENGLISH.timeout;
export const ISM_POWER_OPTIONS = ENGLISH.ismPower;
export const CAN_MODE_OPTIONS = ENGLISH.canMode;
export const CAN_BITRATE_OPTIONS = ENGLISH.canBitrate;
export const RECEIVER_OUTPUT_OPTIONS = ENGLISH.receiverOutput;
export const ROLE_OPTIONS = ENGLISH.role;
export const INPUT_OPTIONS = ENGLISH.input;
export const VOLTAGE_OPTIONS = ENGLISH.voltage;
export const SERIAL_USAGE_OPTIONS = ENGLISH.serialUsage;
export const BAUDRATE_OPTIONS = ENGLISH.baudrate;
export const STOP_CATEGORY_OPTIONS = ENGLISH.stopCategory;
export const OSSD_OPTIONS = ENGLISH.ossd;
