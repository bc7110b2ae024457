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
import { CAN_MODE_LABELS, DEVICE_ROLE_LABELS, INPUT_CONFIGURATION_LABELS } from '../../domain/choice-labels';
import type { Option } from '../components/fields';

/** Choices as a technician reads them; the value is always the interface's canonical name. */

const opt = <V extends string>(values: readonly V[], label: (v: V) => string = (v) => v): Option<V>[] => values.map((value) => ({ value, label: label(value) }));

export const TIMEOUT_OPTIONS = opt(TIMEOUT_CONFIGURATIONS, (v) => v.replace('ms', ' ms'));
export const ISM_POWER_OPTIONS = opt(ISM_TX_POWERS);
export const CAN_MODE_OPTIONS = opt(CAN_MODES, (v) => CAN_MODE_LABELS[v]);
export const CAN_BITRATE_OPTIONS = opt(CAN_K_BITRATES, (v) => {
  const kbit = Number(v.replace('BITRATE_', '')) / 1000;
  const note = ENDPOINT_CONTROLLER_CAN_K_BITRATES.includes(v) ? '' : ' (not EPC/NSCP)';
  return `${kbit >= 1000 ? `${kbit / 1000} Mbit/s` : `${kbit} kbit/s`}${note}`;
});
export const RECEIVER_OUTPUT_OPTIONS: Option<'1' | '2'>[] = [
  { value: '1', label: 'Output 1' },
  { value: '2', label: 'Output 2' },
];
export const ROLE_OPTIONS = opt(DEVICE_ROLES, (v) => DEVICE_ROLE_LABELS[v]);
export const INPUT_OPTIONS = opt(INPUT_CONFIGURATIONS, (v) => INPUT_CONFIGURATION_LABELS[v]);
export const VOLTAGE_OPTIONS = opt(VOLTAGES, (v) => v.replace('VOLTAGE_', ''));
export const SERIAL_USAGE_OPTIONS = opt(SERIAL_USAGES, (v) => (v === 'comms' ? 'Comms (device SDK)' : 'Control (data output)'));
export const BAUDRATE_OPTIONS = opt(SERIAL_BAUDRATES, (v) => v.replace('BAUDRATE_', '') + ' baud');
export const STOP_CATEGORY_OPTIONS = opt(STOP_CATEGORIES, (v) => (v === 'CAT0' ? 'CAT0 — all outputs off at once' : 'CAT1 — output 2 off after a delay'));
export const OSSD_OPTIONS: Option<'true' | 'false'>[] = [
  { value: 'true', label: 'Enabled' },
  { value: 'false', label: 'Disabled' },
];
