import { expect } from 'vitest';
import type { ParseResult, Violation } from '../../domain';

export function pairs(violations: readonly Violation[]): { code: string; field: string }[] {
  return violations.map(({ code, field }) => ({ code, field }));
}

/** The parse failed, and among its violations is this one. Returns the violation for message checks. */
export function expectRejected(result: ParseResult<unknown>, code: string, field: string): Violation {
  if (result.ok)
    throw new Error(`expected ${code} at '${field}', but the payload was accepted: ${JSON.stringify(result.value)}`);
  expect(pairs(result.violations)).toContainEqual({ code, field });
  const found = result.violations.find((v) => v.code === code && v.field === field);
  expect(found?.message.length).toBeGreaterThan(10);
  return found as Violation;
}

export function expectAccepted<T>(result: ParseResult<T>): T {
  if (!result.ok) throw new Error(`expected the payload to be accepted: ${JSON.stringify(result.violations)}`);
  return result.value;
}
