import { readFile } from 'node:fs/promises';
import { decodeConfigFile, type ConfigFileContent } from '../../domain/files/config-file';
import { intendedParameters, type ParameterValue, type ParameterValues } from '../../domain/running-parameters';

/**
 * The simulated firmware's parameter store (docs/device-protocol.md 3.11): when a file is applied,
 * its content is decoded into the values the safety function runs, which are kept in device.json
 * and answered by GET /params from there, not from the file. `--fault-param-drift` stores one of
 * them wrongly, as a flipped bit or a firmware's rounding would.
 */

/** `KEY` or `KEY=VALUE`: which parameter the device stores differently from its file, and as what. */
export interface ParameterDrift {
  key: string;
  /** What to store instead; absent: an integer plus one, a flag negated, other values replaced. */
  value?: ParameterValue;
}

/** `--fault-param-drift safety.timeout=1024`: VALUE as an integer, true/false/null, or else text. */
export function parseParameterDrift(text: string): ParameterDrift {
  const match = /^([A-Za-z0-9_.-]+)(?:=(.*))?$/.exec(text.trim());
  if (!match) throw new Error(`--fault-param-drift wants KEY or KEY=VALUE, e.g. safety.timeout=1024, not "${text}"`);
  const key = match[1]!;
  const raw = match[2];
  if (raw === undefined) return { key };
  return {
    key,
    value: /^-?\d+$/.test(raw)
      ? Number(raw)
      : raw === 'true'
        ? true
        : raw === 'false'
          ? false
          : raw === 'null'
            ? null
            : raw,
  };
}

function drifted(value: ParameterValue): ParameterValue {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return `${value}?`;
  return 0;
}

/** What the firmware stores when it applies a file's content. */
export function storedParameters(content: ConfigFileContent, drift: ParameterDrift | undefined): ParameterValues {
  const values = intendedParameters(content);
  if (drift) values[drift.key] = drift.value !== undefined ? drift.value : drifted(values[drift.key] ?? null);
  return values;
}

/**
 * A device from before this store kept only config.cbor: it decodes that once (a firmware update
 * that adds the store does the same at its first boot). No file: only the device's own id.
 */
export async function parametersOfStoredFile(
  configPath: string,
  serialNumber: string,
  drift: ParameterDrift | undefined,
): Promise<ParameterValues> {
  try {
    return storedParameters(decodeConfigFile(new Uint8Array(await readFile(configPath))).content, drift);
  } catch {
    return intendedParameters({ serialNumber, device: {}, peers: [], safety: {} });
  }
}
