import {
  runningValues,
  RunningValuesError,
  type RunningValueType,
  type VendorFamily,
} from '../../domain/vendor/running-values';
import { decodeConfigData, decodeSecureConfig, SecureConfigError } from '../../domain/vendor/secure-config';
import { isCborMap } from '../../domain/files/cbor';
import { applyDrift, type VendorDrift } from './drift';
import type { Setting } from './settings';
import type { AppliedVendorConfig } from './state';

export type ConfigApplyResult =
  | { ok: true; settings: Record<string, RunningValueType>; record: Omit<AppliedVendorConfig, 'via' | 'at'> }
  | { ok: false; reason: string };

/**
 * What a vendor device does with a secure-config map (cfg/all on the EPC, secureConfig.cbor on the
 * FRC): checks its structure and the SHA-256 of config-data (it cannot check the signature: the
 * vendor's scheme is not public), checks scm2 against the vendor's rules, and works out the values
 * it will run, exactly as domain/vendor/running-values.ts says. Nothing is changed on a refusal.
 */
export function settingsFromSecureConfig(
  bytes: Uint8Array,
  family: VendorFamily,
  table: ReadonlyMap<string, Setting>,
  drift: VendorDrift | undefined,
): ConfigApplyResult {
  try {
    const map = decodeSecureConfig(bytes);
    const data = decodeConfigData(map.configData);
    const { values, drifted } = applyDrift(runningValues(data.scm2, family), drift);
    const settings: Record<string, RunningValueType> = {};
    for (const value of values) {
      // running-values and this device's table must agree; a path it lacks is a simulator bug.
      if (!table.has(value.path))
        throw new Error(`running-values names ${value.path}, which this simulated ${family} lacks`);
      settings[value.path] = value.expected;
    }
    const provisioner = data.provisioner;
    const syncId = isCborMap(provisioner) && typeof provisioner['syncId'] === 'string' ? provisioner['syncId'] : null;
    return { ok: true, settings, record: { checksum: map.checksum, syncId, drifted } };
  } catch (error) {
    if (error instanceof SecureConfigError || error instanceof RunningValuesError)
      return { ok: false, reason: error.message };
    throw error;
  }
}
