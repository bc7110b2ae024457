import type { z } from 'zod';
import type { ErrorEntry } from './errors';
import { ServiceError } from './errors';

/** Where a value came from, so that an error entry names the right thing ('query.Limit'). */
export type InputPart = 'path' | 'query' | 'body';

function codeOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return 'INVALID_TYPE';
    case 'invalid_value':
      return 'INVALID_ENUM_VALUE';
    case 'invalid_format':
      return issue.format === 'uuid' ? 'INVALID_UUID' : issue.format === 'datetime' ? 'INVALID_DATE_TIME' : 'INVALID_VALUE';
    case 'too_big':
      return issue.origin === 'string' ? 'TOO_LONG' : 'TOO_LARGE';
    case 'too_small':
      return issue.origin === 'string' ? 'TOO_SHORT' : 'TOO_SMALL';
    case 'unrecognized_keys':
      return 'UNKNOWN_FIELD';
    case 'custom': {
      const params = (issue as { params?: { code?: unknown } }).params;
      return typeof params?.code === 'string' ? params.code : 'INVALID_VALUE';
    }
    default:
      return 'INVALID_VALUE';
  }
}

function fieldOf(part: InputPart, path: readonly PropertyKey[], extra?: string): string | undefined {
  const segments = [...path.map(String), ...(extra === undefined ? [] : [extra])];
  if (part === 'body') return segments.length === 0 ? undefined : segments.join('.');
  return segments.join('.') || undefined;
}

export function issuesToEntries(part: InputPart, issues: readonly z.core.$ZodIssue[]): ErrorEntry[] {
  const entries: ErrorEntry[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = fieldOf(part, issue.path, key);
        const what = part === 'query' ? 'query parameter' : 'field';
        entries.push({ code: part === 'query' ? 'UNKNOWN_QUERY_PARAMETER' : 'UNKNOWN_FIELD', message: `Unknown ${what} "${key}".`, ...(field ? { field } : {}) });
      }
      continue;
    }
    const field = fieldOf(part, issue.path);
    const where = field ? `${part === 'body' ? '' : `${part} parameter `}${field}` : part === 'body' ? 'the request body' : part;
    entries.push({ code: codeOf(issue), message: `${capitalise(where)}: ${issue.message}`, ...(field ? { field } : {}) });
  }
  return entries;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Parses one part of a request with its schema or throws a 400 naming every problem. */
export function parseInput<S extends z.ZodType>(part: InputPart, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ServiceError(400, issuesToEntries(part, result.error.issues));
}
