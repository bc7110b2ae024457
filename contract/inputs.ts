import { z } from 'zod';
import { mapFields } from '../domain/fields';

/** Input pieces several channel groups share. Shapes only: the rules live in domain/ and the service. */

export const nonEmpty = z.string().trim().min(1);
export const serialNumber = z.string().trim().min(1).max(64);
export const recordId = z.string().trim().min(1).max(64);

/** The service caps a page at 30 records and numbers pages from 1. */
export const pageQuery = {
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(30).default(20),
};

/** The named fields of a shape. */
export function pickFields<T extends Record<string, z.ZodType>, K extends keyof T & string>(
  shape: T,
  names: readonly K[],
): Pick<T, K> {
  return Object.fromEntries(names.map((name) => [name, shape[name]])) as Pick<T, K>;
}

/** Every field of a shape as an input may carry it: a value of its type, null, or absent. */
export function settableFields<T extends Record<string, z.ZodType>>(
  shape: T,
): { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> } {
  return mapFields(shape, (field) => field.nullable().optional()) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
  };
}
