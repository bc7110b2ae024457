import { z } from 'zod';
import type { CallOptions, Query, QueryValue, Transport } from '../http';
import type { WalkOptions } from '../paging';

/** How one list is paged: its walk (walkPages, walkArrayPages, walkOffsets) and the query words of one request. */
export interface ListPaging<Answer, Item, Paging> {
  walk(fetch: (position: number, limit: number) => Promise<Answer>, options: WalkOptions): AsyncGenerator<Item>;
  /** The paging words in this list's own spelling (limit and page, Limit and Page, Limit and Offset). */
  at(position: number, limit: number): Paging;
}

/**
 * `list` (one request, as asked) and `listAll` (every item, request after request) of one list of
 * the interface: a GET, safe to repeat.
 */
export function listOperations<
  ListQuery extends { [K in keyof ListQuery]?: QueryValue },
  Paging extends object,
  Answer,
  Item,
>(t: Transport, path: string, schema: z.ZodType<Answer>, paging: ListPaging<Answer, Item, Paging>) {
  // The list queries are flat records of query values (the constraint above says so per key).
  const fetch = (query: Partial<ListQuery> | undefined, call?: CallOptions) =>
    t.json({ method: 'GET', path, query: { ...query } as Query, safeToRepeat: true }, schema, call);
  return {
    list: (query?: ListQuery, call?: CallOptions) => fetch(query, call),
    listAll: (query?: Omit<ListQuery, keyof Paging>, options: WalkOptions & CallOptions = {}) =>
      paging.walk(
        (position, limit) => fetch({ ...query, ...paging.at(position, limit) } as Partial<ListQuery>, options),
        options,
      ),
  };
}

/** A list the interface types as "array or null": null reads as empty. */
export function arrayOrNullSchema<Item>(item: z.ZodType<Item>): z.ZodType<Item[]> {
  return z
    .array(item)
    .nullable()
    .transform((items) => items ?? []);
}
