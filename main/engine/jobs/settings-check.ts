import { RunningValuesError } from '../../../domain/vendor/running-values';
import { mismatchText } from '../../devices/vendor';
import type { DeviceConnection } from './device-port';
import type { SettingsReadBack } from './device-sync';
import { VendorConnection } from './vendor-connection';

/**
 * What a device that names no configuration file it holds can still tell: the settings it runs.
 * The vendor's EPC keeps no file it lets be read (it does not answer GET cfg/all), so its syncId
 * is unknown; its cfg/… settings are read back against `file` (the one the service serves it now)
 * value by value, as the configuration apply does (docs/vendor-devices.md). Null for a device of
 * ours: it names its file, and its settings are compared by `device verify --parameters`.
 */
export async function settingsReadBack(
  connection: DeviceConnection,
  file: { bytes: Uint8Array; syncId: string },
  signal?: AbortSignal,
): Promise<SettingsReadBack | null> {
  if (!(connection instanceof VendorConnection)) return null;
  try {
    const values = await connection.readBackSettings(file.bytes, signal);
    const mismatches = values.filter((v) => !v.matches);
    return {
      syncId: file.syncId,
      compared: values.length,
      mismatches: mismatches.length === 0 ? null : mismatchText(mismatches),
    };
  } catch (error) {
    // A file the device's family cannot run (an FRC told to use Ethernet) has nothing to read back: it cannot hold it.
    if (!(error instanceof RunningValuesError)) throw error;
    return {
      syncId: file.syncId,
      compared: 0,
      mismatches: `the configuration is not one a device of its family can run (${error.message.replace(/\.$/, '')})`,
    };
  }
}
