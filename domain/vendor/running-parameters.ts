import type { ParameterValue, ParameterValues } from '../running-parameters';
import { EPC_PATH, epcEthPath, FRC_PATH } from './paths';
import type { RunningValueType, VendorFamily } from './running-values';
import { ISM_POWER_DBM } from './scm2-from-configuration';

/**
 * A vendor device's settings, read back through its cfg/… resources (running-values.ts), in the
 * terms of our running parameters (domain/running-parameters.ts), so that the parameter table a
 * person confirms shows what the device runs, not only its serial number. Only settings whose
 * meaning is ours one to one are taken; the rest (care slots, machine slots, peer addresses,
 * radio modes) stay in the value-by-value read-back of the configuration apply, where they are
 * compared in the vendor's own terms. docs/vendor-devices.md lists the mapping.
 */

/** One setting read back: where, and what the device answered. */
export interface VendorReading {
  path: string;
  actual: RunningValueType;
}

type Translate = (actual: RunningValueType) => ParameterValue;

/** Our ISM power names by the dBm the vendor's device runs (the inverse of scm2FromConfiguration's). */
const ISM_POWER_NAME = new Map(Object.entries(ISM_POWER_DBM).map(([name, dbm]) => [dbm, name]));

/** A number as the device meant it (numbers may come back as text). */
function numberOf(actual: RunningValueType): ParameterValue {
  const n = typeof actual === 'number' ? actual : Number(String(actual).trim());
  return Number.isSafeInteger(n) ? n : String(actual);
}

/** 0, 14, 27 dBm are Low, Medium, High; any other power is shown as it is, and differs from every name. */
function ismPowerOf(actual: RunningValueType): ParameterValue {
  const n = numberOf(actual);
  return typeof n === 'number' ? (ISM_POWER_NAME.get(n) ?? `${n} dBm`) : n;
}

/** "12,3,0" (network, device, input) → 12. */
function frcNetworkIdOf(actual: RunningValueType): ParameterValue {
  const [network] = String(actual).split(',');
  return numberOf(network ?? '');
}

/** The EPC's 12-hex-digit radio id starts with the network byte (running-values.ts, epcRadioId). */
function epcNetworkIdOf(actual: RunningValueType): ParameterValue {
  const text = String(actual);
  return /^[0-9a-fA-F]{12}$/.test(text) ? parseInt(text.slice(0, 2), 16) : text;
}

/** "192.168.3.10/24" → "192.168.3.10": our parameter is the address alone. */
function addressOf(actual: RunningValueType): ParameterValue {
  return String(actual).split('/')[0]!;
}

const TRANSLATIONS: Record<VendorFamily, Record<string, { key: string; translate: Translate }>> = {
  FRC: {
    [FRC_PATH.radioChannel]: { key: 'ism.channel', translate: numberOf },
    [FRC_PATH.radioPower]: { key: 'ism.txPower', translate: ismPowerOf },
    [FRC_PATH.ismOwnAddr]: { key: 'ism.networkId', translate: frcNetworkIdOf },
  },
  EPC: {
    [EPC_PATH.timeoutMs]: { key: 'safety.timeout', translate: numberOf },
    [EPC_PATH.ismRfChannel]: { key: 'ism.channel', translate: numberOf },
    [EPC_PATH.ismPower]: { key: 'ism.txPower', translate: ismPowerOf },
    [EPC_PATH.ismRadioId]: { key: 'ism.networkId', translate: epcNetworkIdOf },
    [EPC_PATH.canService]: { key: 'can.mode', translate: (actual) => String(actual) },
    [EPC_PATH.canBitrate]: { key: 'can.bitrate', translate: numberOf },
    [epcEthPath(0, 'ip')]: { key: 'network.ipAddress', translate: addressOf },
    [EPC_PATH.wlan0Ip]: { key: 'network.ipAddress', translate: addressOf },
  },
};

/** Our parameters among what a vendor device of `family` answered; keys it told nothing of are absent. */
export function parametersFromVendorReadings(
  family: VendorFamily,
  readings: readonly VendorReading[],
): ParameterValues {
  const values: ParameterValues = {};
  for (const reading of readings) {
    const translation = TRANSLATIONS[family][reading.path];
    if (translation) values[translation.key] = translation.translate(reading.actual);
  }
  return values;
}
