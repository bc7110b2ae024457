import { join } from 'node:path';
import type { DeviceType } from '../../../domain/device-types';
import { readFirmwareBundle } from '../../../domain/files/firmware-bundle';
import { nodeFileSystem, type FileSystem } from '../../../platform/durable-file';
import { BlobStore } from './blob-store';
import { newestFirst, type CacheEntry, type CacheEvent } from './cache-entry';
import { CacheIndex } from './cache-index';
import type { FirmwareSource } from './firmware-source';
import { prefetchFirmware, type PrefetchReport } from './prefetch';
import { checkStoredBundle, CorruptCacheEntryError, type CachedBundle } from './verified-bundle';
import { buffer } from 'node:stream/consumers';

export type { CacheEntry } from './cache-entry';

/**
 * Firmware bundles kept for installs without the service. Each bundle is stored once, named by
 * the SHA-256 of its bytes (`blobs/<sha256>.zip`, blob-store.ts); `index.json` says which type and
 * version each one holds, where it came from and when (cache-index.ts).
 *
 * Integrity is checked on every read: the bytes are hashed again and must match their name. A
 * corrupt blob is deleted from the cache, reported, and never returned.
 */

export interface FirmwareCacheOptions {
  dir: string;
  fs?: FileSystem;
  now?: () => number;
  onEvent?: (event: CacheEvent) => void;
}

export type BundleInput = Uint8Array | AsyncIterable<Uint8Array>;

export class FirmwareCache {
  readonly dir: string;
  private readonly now: () => number;
  private readonly onEvent: ((event: CacheEvent) => void) | undefined;
  private readonly blobs: BlobStore;
  private readonly index: CacheIndex;

  constructor(options: FirmwareCacheOptions) {
    this.dir = options.dir;
    const fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.onEvent = options.onEvent;
    this.blobs = new BlobStore(join(this.dir, 'blobs'), fs, this.now);
    this.index = new CacheIndex(this.dir, this.blobs, fs, this.now, this.onEvent);
  }

  blobPath(sha256: string): string {
    return this.blobs.path(sha256);
  }

  /**
   * Add a bundle. It is opened and verified first (manifest, image hash, header): a bundle that
   * fails is refused with the bundle's own error and never stored. Adding the same bytes twice
   * keeps one copy.
   */
  async put(input: BundleInput, meta: { source: string; expect?: { deviceType?: string; version?: string } }): Promise<CacheEntry> {
    await this.index.open();
    const bytes = await collect(input);
    const bundle = readFirmwareBundle(bytes, meta.expect ?? {});
    const sha256 = await this.blobs.write(bytes);
    const entry: CacheEntry = {
      sha256,
      deviceType: bundle.deviceType,
      version: bundle.version,
      size: bytes.length,
      fetchedAt: new Date(this.now()).toISOString(),
      source: meta.source,
    };
    await this.index.update((entries) => [...entries.filter((e) => e.sha256 !== sha256), entry]);
    this.onEvent?.({ type: 'added', entry });
    return entry;
  }

  /** Every entry whose blob is present, newest first per type. Does not re-hash (use verifyAll). */
  async list(): Promise<CacheEntry[]> {
    const entries = await this.index.entries();
    return entries.sort((a, b) => a.deviceType.localeCompare(b.deviceType) || newestFirst(a, b));
  }

  /**
   * The bundle with this SHA-256, verified. Undefined when not cached; throws
   * CorruptCacheEntryError (after removing it) when the stored bytes no longer match.
   */
  async get(sha256: string): Promise<CachedBundle | undefined> {
    const entry = (await this.index.entries()).find((e) => e.sha256 === sha256);
    if (!entry) return undefined;
    return this.readVerified(entry);
  }

  /** The cached bundle of this type and version, verified; a corrupt one is evicted and skipped. */
  async find(deviceType: DeviceType, version: string): Promise<CachedBundle | undefined> {
    const candidates = (await this.index.entries()).filter((e) => e.deviceType === deviceType && e.version === version).sort(newestFirst);
    return this.firstIntact(candidates);
  }

  /**
   * The newest intact bundle for a type. Corrupt candidates are evicted (and reported through
   * onEvent) and the next newest is tried.
   */
  async latest(deviceType: DeviceType): Promise<CachedBundle | undefined> {
    const candidates = (await this.index.entries()).filter((e) => e.deviceType === deviceType).sort(newestFirst);
    return this.firstIntact(candidates);
  }

  /** Re-hash every blob; evict the corrupt ones. Returns what was evicted. */
  async verifyAll(): Promise<Array<{ entry: CacheEntry; reason: string }>> {
    const evicted: Array<{ entry: CacheEntry; reason: string }> = [];
    for (const entry of await this.index.entries()) {
      try {
        await this.readVerified(entry);
      } catch (err) {
        if (err instanceof CorruptCacheEntryError) evicted.push({ entry, reason: err.reason });
        else throw err;
      }
    }
    return evicted;
  }

  /** Keep the newest `keepPerType` versions of each type; delete the rest. Returns what was removed. */
  async prune(options: { keepPerType: number }): Promise<CacheEntry[]> {
    const keep = Math.max(0, Math.floor(options.keepPerType));
    const removed: CacheEntry[] = [];
    await this.index.update((entries) => {
      const byType = new Map<string, CacheEntry[]>();
      for (const entry of entries) byType.set(entry.deviceType, [...(byType.get(entry.deviceType) ?? []), entry]);
      const kept: CacheEntry[] = [];
      for (const group of byType.values()) {
        group.sort(newestFirst);
        kept.push(...group.slice(0, keep));
        removed.push(...group.slice(keep));
      }
      return kept;
    });
    // Blobs go after the index no longer names them, so a crash leaves an orphan blob (re-indexed
    // later), never an index entry without its blob.
    for (const entry of removed) {
      await this.blobs.remove(entry.sha256);
      this.onEvent?.({ type: 'pruned', entry });
    }
    return removed;
  }

  /** See prefetchFirmware: the service's latest bundle of each type, downloaded unless cached. */
  prefetch(client: FirmwareSource, deviceTypes?: readonly DeviceType[], options: { signal?: AbortSignal } = {}): Promise<PrefetchReport> {
    return prefetchFirmware(this, client, deviceTypes, options);
  }

  private async firstIntact(candidates: CacheEntry[]): Promise<CachedBundle | undefined> {
    for (const entry of candidates) {
      try {
        return await this.readVerified(entry);
      } catch (err) {
        if (!(err instanceof CorruptCacheEntryError)) throw err;
      }
    }
    return undefined;
  }

  private async readVerified(entry: CacheEntry): Promise<CachedBundle> {
    const checked = checkStoredBundle(entry.sha256, await this.blobs.read(entry.sha256), { deviceType: entry.deviceType, version: entry.version });
    if ('reason' in checked) {
      await this.evict(entry, checked.reason);
      throw new CorruptCacheEntryError(entry, checked.reason);
    }
    return { entry, bytes: checked.bytes, bundle: checked.bundle };
  }

  private async evict(entry: CacheEntry, reason: string): Promise<void> {
    await this.index.update((entries) => entries.filter((e) => e.sha256 !== entry.sha256));
    await this.blobs.remove(entry.sha256);
    this.onEvent?.({ type: 'evicted-corrupt', entry, reason });
  }
}

async function collect(input: BundleInput): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  const collected = await buffer(input);
  return new Uint8Array(collected.buffer, collected.byteOffset, collected.byteLength);
}
