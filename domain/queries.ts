import { z } from 'zod';
import {
  configurationSortOptionSchema,
  keyFormatSchema,
  sortDirectionSchema,
  templateInterfaceSchema,
  templateSortBySchema,
  userSortOptionSchema,
} from './enums';
import { anyInput, pushViolation } from './fields';
import { boundedText, TEXT_LIMITS } from './text-limits';
import type { ViolationCode } from './violations';

/** DESIGN.md: a limit above 30 is an error, pages start at 1. */
export const MAX_PAGE_SIZE = 30;
export const DEFAULT_PAGE_SIZE = 20;
export const FIRST_PAGE = 1;

/**
 * Query values arrive as strings. Integers must be plain digits ('10', not '1e1', '10.0' or ' 10');
 * booleans exactly 'true' or 'false'. Real numbers and booleans are accepted too, for callers that
 * build a query object in code.
 */
function queryInteger(bounds: {
  min: number;
  max?: number;
  tooSmall: ViolationCode;
  tooLarge?: ViolationCode;
  what: string;
}) {
  return anyInput<string | number>().transform((input, ctx): number => {
    const value =
      typeof input === 'number' ? input : typeof input === 'string' && /^\d{1,9}$/.test(input) ? Number(input) : NaN;
    if (!Number.isInteger(value)) {
      pushViolation(
        ctx,
        input,
        'INVALID_INTEGER',
        `${bounds.what} must be a whole number, e.g. ${Math.max(bounds.min, 1)}.`,
      );
      return z.NEVER;
    }
    if (value < bounds.min) {
      pushViolation(
        ctx,
        input,
        bounds.tooSmall,
        `${bounds.what} ${value} is too small: the smallest is ${bounds.min}.`,
      );
      return z.NEVER;
    }
    if (bounds.max !== undefined && value > bounds.max) {
      pushViolation(
        ctx,
        input,
        bounds.tooLarge ?? bounds.tooSmall,
        `${bounds.what} ${value} is too large: at most ${bounds.max} records are returned per page.`,
      );
      return z.NEVER;
    }
    return value;
  });
}

export const queryBoolean = anyInput<'true' | 'false' | boolean>().transform((input, ctx): boolean => {
  if (input === true || input === 'true') return true;
  if (input === false || input === 'false') return false;
  pushViolation(ctx, input, 'INVALID_BOOLEAN', `${JSON.stringify(input)} is not a yes/no value: use true or false.`);
  return z.NEVER;
});

/** Free text; blank means no filter. */
const queryText = boundedText(TEXT_LIMITS.search)
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()));

const limitField = queryInteger({
  min: 1,
  max: MAX_PAGE_SIZE,
  tooSmall: 'LIMIT_TOO_SMALL',
  tooLarge: 'LIMIT_TOO_LARGE',
  what: 'The limit',
});
const pageField = queryInteger({ min: FIRST_PAGE, tooSmall: 'PAGE_OUT_OF_RANGE', what: 'The page number' });
const offsetField = queryInteger({ min: 0, tooSmall: 'OFFSET_OUT_OF_RANGE', what: 'The offset' });

const limit = limitField.optional().default(DEFAULT_PAGE_SIZE);
const page = pageField.optional().default(FIRST_PAGE);

/** GET configurations: the interface spells these with capitals. */
export const configurationListQuerySchema = z.strictObject({
  Search: queryText,
  SortOptions: configurationSortOptionSchema.optional().default('LastEditedDESC'),
  Limit: limit,
  Page: page,
});

/** GET devices. search and serial exclude each other. */
export const deviceListQuerySchema = z
  .strictObject({
    limit,
    page,
    search: queryText,
    serial: queryText,
    configurableOnly: queryBoolean.optional().default(false),
  })
  .superRefine((query, ctx) => {
    if (query.search !== undefined && query.serial !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['serial'],
        message: 'Search and serial cannot be combined: search by text, or look up one serial number.',
        params: { code: 'SEARCH_WITH_SERIAL' },
      });
    }
  });

/** GET ipNetworkTemplates. */
export const templateListQuerySchema = z.strictObject({
  nameFilter: queryText,
  typeFilter: templateInterfaceSchema.optional(),
  sortBy: templateSortBySchema.optional().default('Name'),
  sortDirection: sortDirectionSchema.optional().default('Ascending'),
  limit,
  page,
});

/** GET users. IsActive unset lists everyone. */
export const userListQuerySchema = z.strictObject({
  IsActive: queryBoolean.optional(),
  Search: queryText,
  SortOptions: userSortOptionSchema.optional().default('FirstNameASC'),
  limit,
  page,
});

/**
 * GET apiKeys: offset-based. KeyFormat defaults to Masked so that asking for key data never shows
 * a whole key unless Visible is asked for explicitly.
 */
export const apiKeyListQuerySchema = z.strictObject({
  Limit: limit,
  Offset: offsetField.optional().default(0),
  IncludeApiKeys: queryBoolean.optional().default(false),
  KeyFormat: keyFormatSchema.optional().default('Masked'),
});

/** PATCH configurations/{id}, POST and PATCH of its devices. */
export const dryRunQuerySchema = z.strictObject({
  dryRun: queryBoolean.optional().default(false),
});
