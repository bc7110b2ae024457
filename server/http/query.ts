import { z } from 'zod';

/**
 * Query-string values arrive as text (or as arrays when a name repeats, which is an error here).
 * These schemas read them strictly: "true"/"false" only, integers in decimal only.
 */
export const queryBoolean = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((value) => value === 'true');

export const queryInteger = z
  .string({ error: 'must be a whole number' })
  .regex(/^-?\d{1,9}$/, 'must be a whole number')
  .transform((value) => Number(value));

export const MAX_LIMIT = 30;

/** A limit of 1 to 30 (the interface's cap); a larger one is an error, not silently clamped. */
export const queryLimit = queryInteger.pipe(
  z.number().int().min(1, 'must be at least 1').max(MAX_LIMIT, `must be at most ${MAX_LIMIT}`),
);
/** Pages are numbered from 1. */
export const queryPage = queryInteger.pipe(z.number().int().min(1, 'pages are numbered from 1'));
export const queryOffset = queryInteger.pipe(z.number().int().min(0, 'must be 0 or more'));

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  totalCount: number;
}
