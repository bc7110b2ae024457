import type { z } from 'zod';
import { pageSchema, type Page } from '../../domain';
import { JsonText, type ResponseSpec } from './operation';

/**
 * The interface's paged lists (configurations, devices, users) answer alike: the items of one
 * page, where that page stands, and how many match in all.
 */

/** Where a page stands in its list, as the list's query asked for it. */
export interface PageAt {
  page: number;
  limit: number;
}

/** What a paged list operation declares it answers: a page of `item`. */
export function pageResponse(item: z.ZodType): ResponseSpec {
  return { kind: 'json', data: pageSchema(item), description: '{ items, page, limit, totalCount }' };
}

/** A page of a list as the interface answers it. */
export function pageOf<T>(items: T[], at: PageAt, totalCount: number): Page<T> {
  return { items, page: at.page, limit: at.limit, totalCount };
}

/** The same page as the JSON text it is sent as, from items already kept as JSON text (sent unparsed). */
export function pageText(itemTexts: readonly string[], at: PageAt, totalCount: number): JsonText {
  return new JsonText(
    `{"items":[${itemTexts.join(',')}],"page":${at.page},"limit":${at.limit},"totalCount":${totalCount}}`,
  );
}
