import { createHash } from 'node:crypto';
import {
  canonicalParameterEncoding,
  parameterChecksum,
  shortChecksum,
  type ParameterComparison,
  type ParameterValues,
} from './running-parameters';
import { shiftChecksumChanged, type KeptApartReason } from './station-kept-apart';

/**
 * A Station shift's parameters (issue 26): at the start of a shift the operator confirms, once,
 * the parameters the configuration intends for every device of it, by typing the configuration's
 * parameter checksum; each device of the shift is then verified automatically against exactly
 * those values. The Workbench confirms per device; this is the Station's form of the same rule.
 *
 * The configuration's parameter checksum is SHA-256 (hex) over the canonical encoding
 * (domain/running-parameters.ts) of the map serial number → that device's intended parameter
 * checksum (over every key). It changes when any device's intended parameters change, or a device
 * joins or leaves the configuration; its short form is the last 8 hex digits, as for a device.
 */

/** One device's intended parameters, as the tool computed them from its configuration file. */
export interface ShiftDeviceParameters {
  serialNumber: string;
  deviceType: string;
  /** The file they were computed from. */
  syncId: string;
  values: ParameterValues;
  /** parameterChecksum(values): the device's intended parameter checksum over every key. */
  checksum: string;
}

export interface ShiftParameters {
  configurationId: string;
  configurationName: string;
  /** Sorted by serial number. */
  devices: ShiftDeviceParameters[];
  /** The configuration's parameter checksum (64 hex digits). */
  checksum: string;
}

/** The configuration's parameter checksum over its devices' intended checksums. */
export function configurationParameterChecksum(
  devices: readonly Pick<ShiftDeviceParameters, 'serialNumber' | 'checksum'>[],
): string {
  const map = Object.fromEntries(devices.map((d) => [d.serialNumber, d.checksum]));
  return createHash('sha256').update(canonicalParameterEncoding(map)).digest('hex');
}

/** The shift's parameters from each device's intended values (computed by the caller from its file). */
export function shiftParameters(
  configuration: { id: string; name: string },
  devices: readonly Omit<ShiftDeviceParameters, 'checksum'>[],
): ShiftParameters {
  const withChecksums = devices
    .map((d) => ({ ...d, checksum: parameterChecksum(d.values) }))
    .sort((a, b) => (a.serialNumber < b.serialNumber ? -1 : a.serialNumber > b.serialNumber ? 1 : 0));
  return {
    configurationId: configuration.id,
    configurationName: configuration.name,
    devices: withChecksums,
    checksum: configurationParameterChecksum(withChecksums),
  };
}

/**
 * The operator's confirmation at the start of a shift: the configuration checksum's short form,
 * typed. Only that one is taken. Returns null when confirmed, otherwise why not.
 */
export function shiftConfirmationRefusal(shift: Pick<ShiftParameters, 'checksum'>, typed: string): string | null {
  return shortChecksumRefusal(shortChecksum(shift.checksum), typed);
}

/**
 * The same check against the short form a view shows (StationShiftParametersView.checksumShort):
 * a host that holds only the view asks it before the core checks again at the start.
 */
export function shortChecksumRefusal(checksumShort: string, typed: string): string | null {
  const given = typed.trim().toUpperCase();
  if (!/^[0-9A-F]{8}$/.test(given))
    return "Type the 8 hex digits of the configuration's parameter checksum (0-9 and A-F) as the table shows it, for example 3F9A0C12.";
  if (given !== checksumShort.toUpperCase())
    return "That is not this configuration's parameter checksum. Read it again under the table and type it.";
  return null;
}

/**
 * Whether a device's verification (the job's comparison) was made against the very values the
 * operator confirmed for it at the start of the shift. Not when the configuration changed since
 * (the job read a newer file): then the device runs values no one confirmed. Our devices report
 * every key, so the intended checksums must be equal; a vendor device reports a subset (its scope,
 * checksum computed by the host), so each of its rows must intend the confirmed value.
 * Returns null when it was, otherwise which parameters departed (station-kept-apart.ts says it).
 */
export function departureFromShift(
  device: ShiftDeviceParameters,
  comparison: ParameterComparison,
): KeptApartReason | null {
  const departed = comparison.rows.filter((row) => row.intended !== (device.values[row.key] ?? null));
  if (departed.length > 0) {
    return {
      kind: 'shiftChanged',
      rows: departed.map((row) => ({
        key: row.key,
        unit: row.unit,
        first: row.intended,
        second: device.values[row.key] ?? null,
      })),
    };
  }
  if (comparison.checksumBy === 'device' && comparison.intendedChecksum !== device.checksum)
    return shiftChecksumChanged(comparison.intendedChecksum, device.checksum);
  return null;
}
