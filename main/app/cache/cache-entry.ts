import { z } from 'zod';
import { compareVersions } from '../../../domain/firmware-version';
import { deviceTypeSchema } from '../../../domain/device-types';

/** What the cache knows about one stored bundle; the index holds one per blob. */
export const cacheEntrySchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  deviceType: deviceTypeSchema,
  version: z.string(),
  size: z.number().int().nonnegative(),
  fetchedAt: z.string(),
  /** Where the bundle came from, e.g. `service http://host/v1/organizations/o/devices/types/EPC/firmware` or `file /path`. */
  source: z.string(),
});
export type CacheEntry = z.infer<typeof cacheEntrySchema>;

/** What the cache did on its own, for a log: a corrupt bundle evicted, a lost index entry rebuilt. */
export type CacheEvent =
  | { type: 'added'; entry: CacheEntry }
  | { type: 'evicted-corrupt'; entry: CacheEntry; reason: string }
  | { type: 'pruned'; entry: CacheEntry }
  | { type: 'recovered'; entry: CacheEntry }
  | { type: 'removed-unreadable-blob'; sha256: string; reason: string };

/** Newest first: highest version, then most recently fetched. */
export function newestFirst(a: CacheEntry, b: CacheEntry): number {
  return compareVersions(b.version, a.version) || b.fetchedAt.localeCompare(a.fetchedAt);
}
