import { z } from 'zod';

/** Input pieces several channel groups share. Shapes only: the rules live in domain/ and the service. */

export const nonEmpty = z.string().trim().min(1);
export const serialNumber = z.string().trim().min(1).max(64);
export const recordId = z.string().trim().min(1).max(64);

/** The service caps a page at 30 records and numbers pages from 1. */
export const pageQuery = {
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(30).default(20),
};
