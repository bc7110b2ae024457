import { z } from 'zod';
import { compareVersions } from '../../../domain/firmware-version';
import { deviceTypeSchema } from '../../../domain/device-types';
import type { QuarantinedFile } from '../../../platform/quarantine';

/** A service and organization that served a bundle. */
export const cacheOriginSchema = z.object({
  serviceUrl: z.string().min(1),
  orgId: z.string().min(1),
});
export type CacheOrigin = z.infer<typeof cacheOriginSchema>;

/** What the cache knows about one stored bundle; the index holds one per blob. */
export const cacheEntrySchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  deviceType: deviceTypeSchema,
  version: z.string(),
  size: z.number().int().nonnegative(),
  fetchedAt: z.string(),
  /** Where the bundle came from, e.g. `service http://host/v1/organizations/o/devices/types/EPC/firmware` or `file /path`. */
  source: z.string(),
  /**
   * Every service and organization that served these bytes, most recent last; none for a file a
   * person added or a blob re-indexed after the index was lost. Without the service, a bundle
   * stands in only for its own organization's answer. Absent in indexes written before it existed.
   */
  origins: z.array(cacheOriginSchema).default([]),
  /**
   * SHA-256 of the firmware image inside the bundle (the one its signed manifest names), so that
   * listing the cache (patches are named by image hashes) opens no bundle. A claim like the blob's
   * name: checked against the bundle each time it is used. Absent in indexes written before it
   * existed; such an entry gains it the first time its bundle is opened.
   */
  imageSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type CacheEntry = z.infer<typeof cacheEntrySchema>;

/** A bundle served again and again (the local workspace has a new URL each run) keeps this many origins. */
export const MAX_ORIGINS = 16;

export function sameOrigin(a: CacheOrigin, b: CacheOrigin): boolean {
  return a.serviceUrl === b.serviceUrl && a.orgId === b.orgId;
}

/** `origins` with `origin` moved (or added) to the end, the oldest dropped past MAX_ORIGINS. */
export function withOrigin(origins: readonly CacheOrigin[], origin: CacheOrigin | undefined): CacheOrigin[] {
  if (!origin) return [...origins];
  return [...origins.filter((o) => !sameOrigin(o, origin)), origin].slice(-MAX_ORIGINS);
}

/** What the cache did on its own, for a log: a corrupt bundle or index set aside, a lost index entry rebuilt. */
export type CacheEvent =
  | { type: 'added'; entry: CacheEntry }
  /** The bundle failed its check on read; its blob is in quarantine (file undefined: another process moved it first). */
  | { type: 'evicted-corrupt'; entry: CacheEntry; reason: string; file: QuarantinedFile | undefined }
  | { type: 'pruned'; entry: CacheEntry }
  | { type: 'recovered'; entry: CacheEntry }
  /** index.json or a blob nobody indexed could not be read; it is in quarantine. */
  | { type: 'quarantined'; file: QuarantinedFile };

/** Newest first: highest version, then most recently fetched. */
export function newestFirst(a: CacheEntry, b: CacheEntry): number {
  return compareVersions(b.version, a.version) || b.fetchedAt.localeCompare(a.fetchedAt);
}
