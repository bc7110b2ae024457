/**
 * Walk every page of a list. The service caps a page at 30 records, numbers pages from 1 and
 * answers object lists with `{ items, page, limit, totalCount }`; the operations the interface
 * types as arrays (templates; API keys by offset) return bare arrays, so those stop at the first
 * short page.
 */

import { MAX_PAGE_SIZE } from '../../domain/queries';

// The service's own cap, one definition for both ends.
export { MAX_PAGE_SIZE };
/** A guard against a service that never says "last page": 30 000 records per walk. */
const MAX_PAGES = 1_000;

export interface PageOf<T> {
  items: T[];
  page: number;
  limit: number;
  totalCount: number;
}

export interface WalkOptions {
  /** Records per request; clamped to 1..30. */
  pageSize?: number;
  signal?: AbortSignal;
}

export function pageSize(requested: number | undefined): number {
  if (requested === undefined) return MAX_PAGE_SIZE;
  return Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(requested)));
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Cancelled');
}

/** Pages numbered from 1 with a total count. */
export async function* walkPages<T>(
  fetchPage: (page: number, limit: number) => Promise<PageOf<T>>,
  options: WalkOptions = {},
): AsyncGenerator<T> {
  const limit = pageSize(options.pageSize);
  let seen = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    checkAborted(options.signal);
    const result = await fetchPage(page, limit);
    for (const item of result.items) yield item;
    seen += result.items.length;
    if (result.items.length === 0 || result.items.length < limit || seen >= result.totalCount) return;
  }
}

/** Pages numbered from 1 returned as bare arrays: the last page is the first short one. */
export async function* walkArrayPages<T>(
  fetchPage: (page: number, limit: number) => Promise<T[]>,
  options: WalkOptions = {},
): AsyncGenerator<T> {
  const limit = pageSize(options.pageSize);
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    checkAborted(options.signal);
    const items = await fetchPage(page, limit);
    for (const item of items) yield item;
    if (items.length < limit) return;
  }
}

/** Offset-based lists (API keys: `Offset`, `Limit`) returned as bare arrays. */
export async function* walkOffsets<T>(
  fetchSlice: (offset: number, limit: number) => Promise<T[]>,
  options: WalkOptions = {},
): AsyncGenerator<T> {
  const limit = pageSize(options.pageSize);
  let offset = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    checkAborted(options.signal);
    const items = await fetchSlice(offset, limit);
    for (const item of items) yield item;
    if (items.length < limit) return;
    offset += items.length;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
