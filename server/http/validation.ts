import type { z } from 'zod';
import { parsePayload, type Violation } from '../../domain';
import type { ErrorEntry } from './errors';
import { ServiceError } from './errors';

/** Where a value came from: path parameters are named in their violations' fields as 'path.<name>'. */
export type InputPart = 'path' | 'query' | 'body';

export function violationsToEntries(violations: readonly Violation[], prefix?: string): ErrorEntry[] {
  return violations.map((v) => {
    const field = prefix ? (v.field ? `${prefix}.${v.field}` : prefix) : v.field;
    return field ? { code: v.code, message: v.message, field } : { code: v.code, message: v.message };
  });
}

/** A 400 naming every broken rule (the domain's violations, codes unchanged). */
export function invalid(violations: readonly Violation[]): ServiceError {
  return new ServiceError(400, violationsToEntries(violations));
}

/**
 * Parses one part of a request with a domain (or route) schema through the domain's parsePayload,
 * so every shape error carries the domain's stable code, or throws a 400 naming every problem.
 */
export function parseInput<S extends z.ZodType>(part: InputPart, schema: S, value: unknown): z.output<S> {
  const result = parsePayload(schema, value);
  if (result.ok) return result.value;
  throw new ServiceError(400, violationsToEntries(result.violations, part === 'path' ? 'path' : undefined));
}
