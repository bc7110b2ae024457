import type { ParseResult } from '../../domain/parse';
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

/**
 * Parses a draft's payload and, where the schema refuses some fields, parses the rest again
 * without them, so the rules on the merged result still judge every other field: a technician
 * sees every field to fix at once, not one more after each fix.
 */
export function parseJudgingTheRest<T>(
  parse: (payload: Record<string, unknown>) => ParseResult<T>,
  payload: Record<string, unknown>,
): { refused: Violation[]; value: T | null } {
  const first = parse(payload);
  if (first.ok) return { refused: [], value: first.value };
  const refusedFields = new Set(first.violations.map((v) => fieldKey(v.field)));
  const rest = Object.fromEntries(Object.entries(payload).filter(([key]) => !refusedFields.has(key)));
  const second = parse(rest);
  return { refused: first.violations, value: second.ok ? second.value : null };
}

/** The rules' violations on fields the schema already refused are left out: one message a field. */
export function onFieldsNotRefused(violations: readonly Violation[], refused: readonly Violation[]): Violation[] {
  const refusedFields = new Set(refused.map((v) => fieldKey(v.field)));
  return violations.filter((v) => !refusedFields.has(fieldKey(v.field)));
}
