import type { CachedPatchRecord } from '../../../contract/firmware';
import type { DeviceType } from '../../../domain/device-types';
import type { CacheEntry } from './cache-entry';
import type { FirmwareCache } from './firmware-cache';
import { CorruptCacheEntryError } from './verified-bundle';

/** A kept patch in a technician's words: which release it goes from and to, where the cache knows them (the contract's record of it). */
export type NamedPatch = CachedPatchRecord;

/**
 * The patches the cache keeps, named by the cached releases whose images they join. A patch file
 * is named by image hashes only; the cache index keeps each bundle's image hash, so listing opens
 * no bundle (500 bundles would be hashed on every look at the Firmware screen). An entry from an
 * index written before it kept them is opened (and checked) once, and the index gains its hash; a
 * bundle found damaged then is left out, as everywhere in the cache. `entries` is the cache's list
 * as the caller already read it.
 */
export async function cachedPatches(
  cache: Pick<FirmwareCache, 'get' | 'patches'>,
  entries: readonly CacheEntry[],
): Promise<NamedPatch[]> {
  const patches = await cache.patches.list();
  if (patches.length === 0) return [];
  const releases = new Map<string, { deviceType: DeviceType; version: string }>();
  for (const entry of entries) {
    if (entry.imageSha256 !== undefined) {
      releases.set(entry.imageSha256, { deviceType: entry.deviceType, version: entry.version });
      continue;
    }
    try {
      const cached = await cache.get(entry.sha256);
      if (cached)
        releases.set(cached.bundle.imageSha256, {
          deviceType: cached.bundle.deviceType,
          version: cached.bundle.version,
        });
    } catch (error) {
      if (!(error instanceof CorruptCacheEntryError)) throw error;
    }
  }
  return patches.map((patch) => {
    const from = releases.get(patch.baseSha256);
    const to = releases.get(patch.targetSha256);
    return {
      deviceType: to?.deviceType ?? from?.deviceType ?? null,
      fromVersion: from?.version ?? null,
      toVersion: to?.version ?? null,
      ...patch,
    };
  });
}
