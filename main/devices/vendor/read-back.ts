import {
  runningValueMatches,
  runningValues,
  type RunningValue,
  type RunningValueType,
  type VendorFamily,
} from '../../../domain/vendor/running-values';
import type { Scm2Config } from '../../../domain/vendor/scm2';
import { contentFormatOf } from '../../../protocol/coap/codec';
import { decodeVendorValue } from '../../../protocol/vendor';
import { DeviceProtocolError } from '../errors';
import type { DeviceSession } from '../session';
import { vendorGet } from './requests';

/** One setting read back: what the configuration says, what the device runs. */
export interface ReadBackValue extends RunningValue {
  actual: RunningValueType;
  matches: boolean;
}

/**
 * GETs every cfg/… resource the configuration sets on a device of `family`
 * (domain/vendor/running-values.ts names them) and compares each with the configuration's value.
 * One request at a time: the vendor's devices answer one exchange at a time.
 */
export async function readBackValues(
  session: DeviceSession,
  family: VendorFamily,
  config: Scm2Config,
  signal?: AbortSignal,
): Promise<ReadBackValue[]> {
  const values: ReadBackValue[] = [];
  for (const value of runningValues(config, family)) {
    let actual = await readValue(session, family, value.path, signal);
    // With no CRC on the vendor's USB frames a damaged answer can read as another value: a value
    // that differs is asked once more, and the second answer stands.
    if (!runningValueMatches(value.expected, actual)) actual = await readValue(session, family, value.path, signal);
    values.push({ ...value, actual, matches: runningValueMatches(value.expected, actual) });
  }
  return values;
}

/** One setting as the device answers it. */
export async function readValue(
  session: DeviceSession,
  family: VendorFamily,
  path: string,
  signal?: AbortSignal,
): Promise<RunningValueType> {
  const step = `reading ${path}`;
  const response = await vendorGet(session, path, { signal, step });
  try {
    return decodeVendorValue(path, family, response.message.payload, contentFormatOf(response.message));
  } catch (error) {
    throw new DeviceProtocolError(session.context(step), (error as Error).message);
  }
}

function shown(value: RunningValueType, unit: string | undefined): string {
  const text = typeof value === 'string' ? `"${value}"` : String(value);
  return unit ? `${text} ${unit}` : text;
}

/** "ISM radio channel (cfg/setup/radioChannel) is 4, the configuration says 3", one per mismatch. */
export function mismatchText(mismatches: readonly ReadBackValue[]): string {
  return mismatches
    .map(
      (m) =>
        `${m.label} (${m.path}) is ${shown(m.actual, m.unit)}, the configuration says ${shown(m.expected, m.unit)}`,
    )
    .join('; ');
}
