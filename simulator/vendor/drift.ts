import type { RunningValue, RunningValueType } from '../../domain/vendor/running-values';

/**
 * `--fault-param-drift PATH[=VALUE]` on a vendor device: when it applies a configuration file it
 * runs the setting at PATH (a cfg/… path of domain/vendor/running-values.ts, `?n` for a slot)
 * differently from the file, and still records the file as applied, as a firmware that rounds or
 * flips a bit would. The host's value-by-value read-back must catch it.
 */
export interface VendorDrift {
  path: string;
  value?: RunningValueType;
}

export function parseVendorDrift(text: string): VendorDrift {
  const match = /^([A-Za-z0-9_./-]+(?:\?\d+)?)(?:=(.*))?$/.exec(text.trim());
  if (!match || !match[1]!.includes('/'))
    throw new Error(
      `--fault-param-drift on a vendor device wants PATH or PATH=VALUE, e.g. cfg/sf/smcu/global/timeoutMs=1024, not "${text}"`,
    );
  const raw = match[2];
  if (raw === undefined) return { path: match[1]! };
  return {
    path: match[1]!,
    value: /^-?\d+$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw,
  };
}

/** The value the device runs instead: VALUE, or an integer plus one, a flag negated, text with '?' added. */
export function driftedValue(value: RunningValueType, drift: VendorDrift): RunningValueType {
  if (drift.value !== undefined) return drift.value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return `${value}?`;
}

/** Applies the drift to the values of a file; returns the path drifted, or null when the file does not set it. */
export function applyDrift(
  values: RunningValue[],
  drift: VendorDrift | undefined,
): { values: RunningValue[]; drifted: string | null } {
  if (drift === undefined) return { values, drifted: null };
  let drifted: string | null = null;
  const out = values.map((v) => {
    if (v.path !== drift.path) return v;
    drifted = v.path;
    return { ...v, expected: driftedValue(v.expected, drift) };
  });
  return { values: out, drifted };
}
