import type { z } from 'zod';
import { fieldLabel } from './field-labels';
import { quoteForMessage } from './text-limits';
import { violation, type Violation, type ViolationCode } from './violations';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; violations: Violation[] };

/**
 * Parses and normalizes a payload (body or query) with one of the domain's schemas. Never throws:
 * every problem comes back as a Violation with a stable code and a dotted field path.
 */
export function parsePayload<S extends z.ZodType>(schema: S, input: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const known = knownKeys(schema);
  return { ok: false, violations: result.error.issues.flatMap((issue) => issueToViolations(issue, known)) };
}

/** Top-level field names of an object schema, to suggest the right spelling ('limit' for 'Limit'). */
function knownKeys(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return shape !== null && typeof shape === 'object' ? Object.keys(shape) : [];
}

/** All violations as one text, one per line, for logs and command-line output. */
export function violationsToMessage(violations: readonly Violation[]): string {
  return violations.map((v) => (v.field ? `${v.field}: ${v.message}` : v.message)).join('\n');
}

function issueToViolations(issue: z.core.$ZodIssue, knownTopLevelKeys: readonly string[]): Violation[] {
  const field = issue.path.map(String).join('.');
  const label = fieldLabel(field);
  const hasInput = 'input' in issue && issue.input !== undefined;
  const input = 'input' in issue ? issue.input : undefined;
  switch (issue.code) {
    case 'custom': {
      const code = (issue.params as { code?: ViolationCode } | undefined)?.code ?? 'INVALID_VALUE';
      return [violation(code, field, issue.message)];
    }
    case 'invalid_type':
      if (!hasInput || input === null) return [violation('REQUIRED', field, `${label} is required.`)];
      if (issue.expected === 'int' && typeof input === 'number') {
        return [violation('INVALID_INTEGER', field, `${label} must be a whole number, not ${input}.`)];
      }
      return [
        violation(
          'INVALID_TYPE',
          field,
          `${label} must be ${describeExpected(issue.expected)}, not ${describeValue(input)}.`,
        ),
      ];
    case 'too_big':
    case 'too_small':
      if (issue.origin === 'number' || issue.origin === 'int') {
        return [violation('INTEGER_OUT_OF_RANGE', field, `${label} ${String(input)} is out of range.`)];
      }
      return [violation('INVALID_VALUE', field, `${label} is ${issue.code === 'too_big' ? 'too long' : 'too short'}.`)];
    case 'invalid_value':
      return [
        violation(
          'INVALID_ENUM_VALUE',
          field,
          `${label} ${quoteForMessage(input)} is not accepted: use ${issue.values.map(String).join(', ')}.`,
        ),
      ];
    case 'invalid_format':
      if (issue.format === 'uuid' || issue.format === 'guid') {
        return [
          violation('INVALID_UUID', field, `${label} must be an id such as 3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f.`),
        ];
      }
      if (issue.format === 'datetime') {
        return [
          violation('INVALID_DATE_TIME', field, `${label} must be a date and time such as 2025-03-01T14:30:00Z.`),
        ];
      }
      if (issue.format === 'email') {
        return [violation('INVALID_EMAIL', field, `${quoteForMessage(input)} is not an email address.`)];
      }
      return [violation('INVALID_VALUE', field, `${label} has the wrong format.`)];
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const meant =
          field === '' ? knownTopLevelKeys.find((k) => k !== key && k.toLowerCase() === key.toLowerCase()) : undefined;
        const hint = meant ? `it is spelled ${meant} here.` : 'remove it or check its spelling.';
        return violation(
          'UNKNOWN_FIELD',
          field ? `${field}.${key}` : key,
          `${key} is not a field of this request: ${hint}`,
        );
      });
    default:
      return [violation('INVALID_VALUE', field, `${label} is not valid.`)];
  }
}

function describeExpected(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return expected;
  }
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text ${quoteForMessage(value)}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}
