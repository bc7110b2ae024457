import type { Violation } from '../../domain/violations';

/**
 * Where a violation shows: its field path's first named segment ('approvedSourceAddresses.2' →
 * 'approvedSourceAddresses'), relative to a prefix such as 'devices.EPC000101'.
 */
export function fieldKey(field: string, prefix = ''): string | null {
  let rest = field;
  if (prefix) {
    if (rest === prefix) return '';
    if (!rest.startsWith(`${prefix}.`)) return null;
    rest = rest.slice(prefix.length + 1);
  }
  const first = rest.split('.')[0] ?? '';
  return first;
}

/** The first message per field, and the violations no field of `known` shows. */
export function placeViolations(
  violations: readonly Violation[],
  known: readonly string[],
  prefix = '',
): { byField: Record<string, string>; unplaced: Violation[] } {
  const byField: Record<string, string> = {};
  const unplaced: Violation[] = [];
  for (const v of violations) {
    const key = fieldKey(v.field, prefix);
    if (key !== null && known.includes(key)) {
      byField[key] ??= v.message;
    } else {
      unplaced.push(v);
    }
  }
  return { byField, unplaced };
}

/** Same field and code once: the instant check and the service may report the same thing. */
export function dedupeViolations(violations: readonly Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field}\u0000${v.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
