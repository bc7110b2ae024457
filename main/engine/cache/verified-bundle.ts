import { readFirmwareBundle, sha256Hex, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { CacheEntry } from './cache-entry';

/**
 * Whether stored bytes are still the bundle they were stored as: present, hashing to their name,
 * and opening as a bundle (manifest, image hash, image header) of the type and version expected.
 * The cache checks on every read, so a bit flipped on disk is never installed on a device.
 */

export interface CachedBundle {
  entry: CacheEntry;
  /** The zip as stored, verified against its SHA-256. */
  bytes: Uint8Array;
  /** The bundle opened and checked (manifest, image hash, image header). */
  bundle: FirmwareBundle;
}

/** A cached bundle failed its integrity check; it has been taken out of the cache and set aside in quarantine. */
export class CorruptCacheEntryError extends Error {
  override readonly name = 'CorruptCacheEntryError';
  constructor(
    readonly entry: CacheEntry,
    readonly reason: string,
  ) {
    super(
      `The cached firmware ${entry.deviceType} ${entry.version} (${entry.sha256.slice(0, 12)}) is damaged (${reason}); it was taken out of the cache (kept in its quarantine folder). Download it again.`,
    );
  }
}

/** The bundle the bytes named `sha256` hold, or why they cannot be used. */
export function checkStoredBundle(
  sha256: string,
  bytes: Uint8Array | undefined,
  expect: { deviceType?: string; version?: string } = {},
): { bytes: Uint8Array; bundle: FirmwareBundle } | { reason: string } {
  if (!bytes) return { reason: 'file missing' };
  if (sha256Hex(bytes) !== sha256) return { reason: 'SHA-256 does not match' };
  try {
    return { bytes, bundle: readFirmwareBundle(bytes, expect) };
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
}
