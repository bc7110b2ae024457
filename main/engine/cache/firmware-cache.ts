import { join } from 'node:path';
import type { DeviceType } from '../../../domain/device-types';
import { FileFormatError } from '../../../domain/files/file-error';
import { readFirmwareBundle, sha256Hex } from '../../../domain/files/firmware-bundle';
import { FIRMWARE_BUNDLE_LIMITS } from '../../../domain/files/zip-limits';
import { nodeFileSystem, type FileSystem } from '../../../platform/durable-file';
import { listQuarantined, QUARANTINE_DIR } from '../../../platform/quarantine';
import { BlobStore } from './blob-store';
import { newestFirst, sameOrigin, withOrigin, type CacheEntry, type CacheEvent, type CacheOrigin } from './cache-entry';
import { CacheIndex } from './cache-index';
import { PatchStore } from './patch-store';
import { DeflatedStore } from './deflated-store';
import { ReleaseKeyStore } from './release-key-store';
import { checkStoredBundle, CorruptCacheEntryError, type CachedBundle } from './verified-bundle';

export type { CacheEntry, CacheOrigin } from './cache-entry';

/**
 * Firmware bundles kept for installs without the service. Each bundle is stored once, named by
 * the SHA-256 of its bytes (`blobs/<sha256>.zip`, blob-store.ts); `index.json` says which type and
 * version each one holds, where it came from and when, and which services and organizations
 * served it (cache-index.ts).
 *
 * Integrity is checked on every read: the bytes are hashed again and must match their name. A
 * corrupt blob or index is moved to `quarantine/` (never deleted), reported, and never returned.
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
  private readonly fs: FileSystem;
  private readonly blobs: BlobStore;
  private readonly index: CacheIndex;
  /** The release keys of each service, for checking bundles' signatures without it (release-key-store.ts). */
  readonly releaseKeys: ReleaseKeyStore;
  /** Patches between firmware images, so installs without the service still send them (patch-store.ts). */
  readonly patches: PatchStore;
  /** Images and patches deflated once, with zopfli, when they enter the cache (deflated-store.ts). */
  readonly deflated: DeflatedStore;

  constructor(options: FirmwareCacheOptions) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.onEvent = options.onEvent;
    this.blobs = new BlobStore(join(this.dir, 'blobs'), this.quarantineDir, this.fs, this.now);
    this.index = new CacheIndex(this.dir, this.quarantineDir, this.blobs, this.fs, this.now, this.onEvent);
    this.releaseKeys = new ReleaseKeyStore({ dir: join(this.dir, 'release-keys'), fs: this.fs, now: this.now });
    this.patches = new PatchStore(this.dir, this.quarantineDir, this.fs, this.now);
    this.deflated = new DeflatedStore(this.dir, this.quarantineDir, this.fs, this.now);
  }

  /** Where damaged bundles and indexes are kept for a person to look at. */
  get quarantineDir(): string {
    return join(this.dir, QUARANTINE_DIR);
  }

  /** The files set aside as damaged, oldest first. */
  quarantined(): Promise<string[]> {
    return listQuarantined(this.fs, this.quarantineDir);
  }

  blobPath(sha256: string): string {
    return this.blobs.path(sha256);
  }

  /**
   * Add a bundle. It is opened and verified first (size, manifest, image hash, header, and the
   * SHA-256 the service announced for it when given): a bundle that fails is refused with the
   * bundle's own error and never stored. Adding the same bytes twice keeps one copy, which then
   * belongs to every origin that served it.
   */
  async put(
    input: BundleInput,
    meta: {
      source: string;
      /** The service and organization that served it; none for a file a person added. */
      origin?: CacheOrigin;
      /** `sha256`: the whole bundle's, as the service announced it (X-Firmware-Sha256). */
      expect?: { deviceType?: string; version?: string; sha256?: string };
    },
  ): Promise<CacheEntry> {
    await this.index.open();
    const bytes = await collect(input);
    const { sha256: announced, ...expect } = meta.expect ?? {};
    if (announced !== undefined && sha256Hex(bytes) !== announced) {
      throw new FileFormatError(
        'FW_HASH_MISMATCH',
        `The firmware bundle received does not match the SHA-256 the service announced for it (${announced.slice(0, 12)}…). Download it again.`,
      );
    }
    const bundle = readFirmwareBundle(bytes, expect);
    const sha256 = await this.blobs.write(bytes);
    let entry: CacheEntry | undefined;
    await this.index.update((entries) => {
      const previous = entries.find((e) => e.sha256 === sha256);
      entry = {
        sha256,
        deviceType: bundle.deviceType,
        version: bundle.version,
        size: bytes.length,
        fetchedAt: new Date(this.now()).toISOString(),
        source: meta.source,
        origins: withOrigin(previous?.origins ?? [], meta.origin),
        imageSha256: bundle.imageSha256,
      };
      return [...entries.filter((e) => e.sha256 !== sha256), entry];
    });
    this.onEvent?.({ type: 'added', entry: entry! });
    return entry!;
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

  /**
   * The cached bundle of this type and version, verified; a corrupt one is evicted and skipped.
   * With `origin`, only a bundle that service and organization served.
   */
  async find(deviceType: DeviceType, version: string, origin?: CacheOrigin): Promise<CachedBundle | undefined> {
    const candidates = (await this.candidates(deviceType, origin)).filter((e) => e.version === version);
    return this.firstIntact(candidates);
  }

  /**
   * The newest intact bundle for a type; with `origin`, among those that service and organization
   * served (what the offline fallback uses). Corrupt candidates are evicted (and reported through
   * onEvent) and the next newest is tried.
   */
  async latest(deviceType: DeviceType, origin?: CacheOrigin): Promise<CachedBundle | undefined> {
    return this.firstIntact(await this.candidates(deviceType, origin));
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

  private async candidates(deviceType: DeviceType, origin: CacheOrigin | undefined): Promise<CacheEntry[]> {
    const entries = (await this.index.entries()).filter((e) => e.deviceType === deviceType);
    return (origin ? entries.filter((e) => e.origins.some((o) => sameOrigin(o, origin))) : entries).sort(newestFirst);
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
    const checked = checkStoredBundle(entry.sha256, await this.blobs.read(entry.sha256), {
      deviceType: entry.deviceType,
      version: entry.version,
    });
    if ('reason' in checked) return this.refuse(entry, checked.reason);
    if (entry.imageSha256 !== undefined && entry.imageSha256 !== checked.bundle.imageSha256)
      return this.refuse(entry, "its image's SHA-256 is not the one the cache index recorded for it");
    if (entry.imageSha256 !== undefined) return { entry, bytes: checked.bytes, bundle: checked.bundle };
    // An index written before it kept image hashes: now that the bundle is open, it gains this one.
    const imageSha256 = checked.bundle.imageSha256;
    await this.index.update((entries) =>
      entries.map((e) => (e.sha256 === entry.sha256 && e.imageSha256 === undefined ? { ...e, imageSha256 } : e)),
    );
    return { entry: { ...entry, imageSha256 }, bytes: checked.bytes, bundle: checked.bundle };
  }

  /** Takes a bundle that failed its check out of the cache and says why. */
  private async refuse(entry: CacheEntry, reason: string): Promise<never> {
    await this.evict(entry, reason);
    throw new CorruptCacheEntryError(entry, reason);
  }

  private async evict(entry: CacheEntry, reason: string): Promise<void> {
    await this.index.update((entries) => entries.filter((e) => e.sha256 !== entry.sha256));
    const file = await this.blobs.quarantine(
      entry.sha256,
      `the cached firmware ${entry.deviceType} ${entry.version} is damaged: ${reason}`,
    );
    this.onEvent?.({ type: 'evicted-corrupt', entry, reason, file });
  }
}

/** The bundle's bytes; a stream is read no further than the largest bundle there can be. */
async function collect(input: BundleInput): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  const limit = FIRMWARE_BUNDLE_LIMITS.maxZipBytes;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of input) {
    size += chunk.length;
    if (size > limit)
      throw new FileFormatError(
        'FW_BUNDLE_TOO_LARGE',
        `The firmware bundle is refused: it is more than ${limit} bytes, more than a bundle may be.`,
      );
    parts.push(chunk);
  }
  const joined = Buffer.concat(parts);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}
