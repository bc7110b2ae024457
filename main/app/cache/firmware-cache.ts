import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { DEVICE_TYPES, deviceTypeSchema, type DeviceType } from '../../../domain/device-types';
import type { ServiceClient } from '../../cloud';
import { readFirmwareBundle, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import {
  errnoCode,
  fsyncDir,
  isTempName,
  nodeFileSystem,
  readFileIfExists,
  removeDurable,
  removeStaleTemps,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';

/**
 * Firmware bundles kept for installs without the service. Each bundle is stored once, named by
 * the SHA-256 of its bytes (`blobs/<sha256>.zip`); `index.json` says which type and version each
 * one holds, where it came from and when. The blobs are the truth: the index is rewritten
 * atomically (temp + fsync + rename) and, if lost or behind (a crash, two processes writing it at
 * once), rebuilt from the blobs on the next read.
 *
 * Integrity is checked on every read: the bytes are hashed again and must match their name. A
 * corrupt blob is deleted from the cache, reported, and never returned.
 */

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

const indexSchema = z.object({
  format: z.literal('provisioner-firmware-cache/1'),
  entries: z.array(cacheEntrySchema),
});

export interface CachedBundle {
  entry: CacheEntry;
  /** The zip as stored, verified against its SHA-256. */
  bytes: Uint8Array;
  /** The bundle opened and checked (manifest, image hash, image header). */
  bundle: FirmwareBundle;
}

/** A cached bundle failed its integrity check; it has been removed from the cache. */
export class CorruptCacheEntryError extends Error {
  override readonly name = 'CorruptCacheEntryError';
  constructor(
    readonly entry: CacheEntry,
    readonly reason: string,
  ) {
    super(`The cached firmware ${entry.deviceType} ${entry.version} (${entry.sha256.slice(0, 12)}) is damaged (${reason}); it was removed from the cache. Download it again.`);
  }
}

export type CacheEvent =
  | { type: 'added'; entry: CacheEntry }
  | { type: 'evicted-corrupt'; entry: CacheEntry; reason: string }
  | { type: 'pruned'; entry: CacheEntry }
  | { type: 'recovered'; entry: CacheEntry }
  | { type: 'removed-unreadable-blob'; sha256: string; reason: string };

export interface FirmwareCacheOptions {
  dir: string;
  fs?: FileSystem;
  now?: () => number;
  onEvent?: (event: CacheEvent) => void;
}

export type BundleInput = Uint8Array | AsyncIterable<Uint8Array>;

/** The part of the API client that prefetch and resolve use. */
export type FirmwareSource = Pick<ServiceClient, 'baseUrl' | 'orgId'> & {
  devices: Pick<ServiceClient['devices'], 'listAll' | 'firmwareVersion' | 'firmwareVersionByType' | 'fetchFirmware' | 'fetchFirmwareByType'>;
};

export interface PrefetchReport {
  fetched: CacheEntry[];
  /** Already cached at the service's latest version. */
  upToDate: Array<{ deviceType: DeviceType; version: string }>;
  /** One failing type does not stop the others. */
  failed: Array<{ deviceType: DeviceType; error: unknown }>;
}

export function firmwareSourceLabel(source: Pick<FirmwareSource, 'baseUrl' | 'orgId'>, path: string): string {
  return `service ${source.baseUrl}/v1/organizations/${encodeURIComponent(source.orgId)}${path}`;
}

const BLOBS = 'blobs';
const INDEX = 'index.json';
const TEMP_GRACE_MS = 60 * 60_000;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Order of firmware versions: numeric runs compare as numbers ('2.10.0' > '2.9.1'), other runs as
 * text; a version with a pre-release suffix sorts before the same version without ('2.0.0-rc1' <
 * '2.0.0').
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): { core: string[]; pre: string | undefined } => {
    const [core = '', ...rest] = v.trim().replace(/^v/i, '').split('-');
    return { core: core.split(/[.+]/), pre: rest.length > 0 ? rest.join('-') : undefined };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.core.length, y.core.length); i += 1) {
    const p = x.core[i] ?? '0';
    const q = y.core[i] ?? '0';
    const bothNumeric = /^\d+$/.test(p) && /^\d+$/.test(q);
    const order = bothNumeric ? Number(p) - Number(q) : p.localeCompare(q);
    if (order !== 0) return Math.sign(order);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return Math.sign(x.pre.localeCompare(y.pre, undefined, { numeric: true }));
}

/** Newest first: highest version, then most recently fetched. */
function newestFirst(a: CacheEntry, b: CacheEntry): number {
  return compareVersions(b.version, a.version) || b.fetchedAt.localeCompare(a.fetchedAt);
}

async function collect(input: BundleInput): Promise<Uint8Array> {
  if (input instanceof Uint8Array) return input;
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of input) {
    parts.push(chunk);
    size += chunk.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

export class FirmwareCache {
  readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private readonly onEvent: ((event: CacheEvent) => void) | undefined;
  private ready: Promise<void> | undefined;
  /** Serialises index read-modify-write within the process. */
  private indexQueue: Promise<unknown> = Promise.resolve();
  /** Blobs re-indexed in this process, so each is opened and reported once. */
  private readonly recovered = new Map<string, CacheEntry>();

  constructor(options: FirmwareCacheOptions) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.onEvent = options.onEvent;
  }

  private get blobsDir(): string {
    return join(this.dir, BLOBS);
  }

  blobPath(sha256: string): string {
    return join(this.blobsDir, `${sha256}.zip`);
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await this.fs.mkdir(this.blobsDir, { recursive: true, mode: 0o700 });
      await fsyncDir(this.fs, this.dir);
      await removeStaleTemps(this.fs, this.blobsDir, TEMP_GRACE_MS, this.now());
      await removeStaleTemps(this.fs, this.dir, TEMP_GRACE_MS, this.now());
    })();
    return this.ready;
  }

  /**
   * Add a bundle. It is opened and verified first (manifest, image hash, header): a bundle that
   * fails is refused with the bundle's own error and never stored. Adding the same bytes twice
   * keeps one copy.
   */
  async put(input: BundleInput, meta: { source: string; expect?: { deviceType?: string; version?: string } }): Promise<CacheEntry> {
    await this.init();
    const bytes = await collect(input);
    const bundle = readFirmwareBundle(bytes, meta.expect ?? {});
    const sha256 = sha256Hex(bytes);
    const path = this.blobPath(sha256);
    const existing = await readFileIfExists(this.fs, path);
    if (!existing || sha256Hex(existing) !== sha256) await writeFileDurable(this.fs, path, bytes, 0o600);
    const entry: CacheEntry = {
      sha256,
      deviceType: bundle.deviceType,
      version: bundle.version,
      size: bytes.length,
      fetchedAt: new Date(this.now()).toISOString(),
      source: meta.source,
    };
    await this.updateIndex((entries) => [...entries.filter((e) => e.sha256 !== sha256), entry]);
    this.onEvent?.({ type: 'added', entry });
    return entry;
  }

  /** Add a bundle from a file (e.g. one the client just downloaded). */
  async putFile(path: string, meta: { source: string; expect?: { deviceType?: string; version?: string } }): Promise<CacheEntry> {
    return this.put(await this.fs.readFile(path), meta);
  }

  /** Every entry whose blob is present, newest first per type. Does not re-hash (use verifyAll). */
  async list(): Promise<CacheEntry[]> {
    const entries = await this.loadIndex();
    return entries.sort((a, b) => a.deviceType.localeCompare(b.deviceType) || newestFirst(a, b));
  }

  /**
   * The bundle with this SHA-256, verified. Undefined when not cached; throws
   * CorruptCacheEntryError (after removing it) when the stored bytes no longer match.
   */
  async get(sha256: string): Promise<CachedBundle | undefined> {
    const entry = (await this.loadIndex()).find((e) => e.sha256 === sha256);
    if (!entry) return undefined;
    return this.readVerified(entry);
  }

  /** The cached bundle of this type and version, verified; a corrupt one is evicted and skipped. */
  async find(deviceType: DeviceType, version: string): Promise<CachedBundle | undefined> {
    const candidates = (await this.loadIndex()).filter((e) => e.deviceType === deviceType && e.version === version).sort(newestFirst);
    return this.firstIntact(candidates);
  }

  /**
   * The newest intact bundle for a type. Corrupt candidates are evicted (and reported through
   * onEvent and `evicted`) and the next newest is tried.
   */
  async latest(deviceType: DeviceType): Promise<CachedBundle | undefined> {
    const candidates = (await this.loadIndex()).filter((e) => e.deviceType === deviceType).sort(newestFirst);
    return this.firstIntact(candidates);
  }

  /** Re-hash every blob; evict the corrupt ones. Returns what was evicted. */
  async verifyAll(): Promise<Array<{ entry: CacheEntry; reason: string }>> {
    const evicted: Array<{ entry: CacheEntry; reason: string }> = [];
    for (const entry of await this.loadIndex()) {
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
    await this.updateIndex(async (entries) => {
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
      await removeDurable(this.fs, this.blobPath(entry.sha256));
      this.onEvent?.({ type: 'pruned', entry });
    }
    return removed;
  }

  /**
   * Make sure the latest bundle of each type is cached: the types given, or every type among the
   * organization's registered devices. A type already cached at the service's latest version (and
   * intact) is not downloaded again.
   */
  async prefetch(client: FirmwareSource, deviceTypes?: readonly DeviceType[], options: { signal?: AbortSignal } = {}): Promise<PrefetchReport> {
    const types = deviceTypes ?? (await this.typesInUse(client, options.signal));
    const report: PrefetchReport = { fetched: [], upToDate: [], failed: [] };
    for (const deviceType of types) {
      try {
        const { version } = await client.devices.firmwareVersionByType(deviceType, { signal: options.signal });
        if (await this.find(deviceType, version)) {
          report.upToDate.push({ deviceType, version });
          continue;
        }
        const file = await client.devices.fetchFirmwareByType(deviceType, { signal: options.signal });
        report.fetched.push(
          await this.put(file.bytes, { source: firmwareSourceLabel(client, `/devices/types/${deviceType}/firmware`), expect: { deviceType } }),
        );
      } catch (error) {
        report.failed.push({ deviceType, error });
      }
    }
    return report;
  }

  private async typesInUse(client: FirmwareSource, signal: AbortSignal | undefined): Promise<DeviceType[]> {
    const seen = new Set<DeviceType>();
    for await (const device of client.devices.listAll({}, { signal })) seen.add(device.deviceType);
    // The order a technician sees types in, not the order devices were listed in.
    return DEVICE_TYPES.filter((t) => seen.has(t));
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
    const bytes = await readFileIfExists(this.fs, this.blobPath(entry.sha256));
    let reason: string | undefined;
    let bundle: FirmwareBundle | undefined;
    if (!bytes) reason = 'file missing';
    else if (sha256Hex(bytes) !== entry.sha256) reason = 'SHA-256 does not match';
    else {
      try {
        bundle = readFirmwareBundle(bytes, { deviceType: entry.deviceType, version: entry.version });
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
    }
    if (reason !== undefined || !bytes || !bundle) {
      const why = reason ?? 'unreadable';
      await this.evict(entry, why);
      throw new CorruptCacheEntryError(entry, why);
    }
    return { entry, bytes, bundle };
  }

  private async evict(entry: CacheEntry, reason: string): Promise<void> {
    await this.updateIndex((entries) => entries.filter((e) => e.sha256 !== entry.sha256));
    await removeDurable(this.fs, this.blobPath(entry.sha256));
    this.onEvent?.({ type: 'evicted-corrupt', entry, reason });
  }

  private updateIndex(change: (entries: CacheEntry[]) => CacheEntry[] | Promise<CacheEntry[]>): Promise<void> {
    const run = this.indexQueue.then(async () => {
      const next = await change(await this.loadIndex());
      await writeFileDurable(this.fs, join(this.dir, INDEX), JSON.stringify({ format: 'provisioner-firmware-cache/1', entries: next }, null, 2) + '\n');
    });
    this.indexQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * The index reconciled with the blobs on disk: entries without a blob are dropped, blobs without
   * an entry (the index was lost, or another process's write won) are opened and re-indexed.
   */
  private async loadIndex(): Promise<CacheEntry[]> {
    await this.init();
    let entries: CacheEntry[] = [];
    const raw = await readFileIfExists(this.fs, join(this.dir, INDEX));
    if (raw) {
      try {
        entries = indexSchema.parse(JSON.parse(raw.toString('utf8'))).entries;
      } catch {
        entries = []; // rebuilt from the blobs below
      }
    }
    const names = await this.fs.readdir(this.blobsDir);
    const present = new Set(names.filter((n) => !isTempName(n) && /^[0-9a-f]{64}\.zip$/.test(n)).map((n) => n.slice(0, 64)));
    const indexed = new Map<string, CacheEntry>();
    for (const entry of entries) if (present.has(entry.sha256)) indexed.set(entry.sha256, entry);
    for (const sha256 of present) {
      if (indexed.has(sha256)) continue;
      const recovered = this.recovered.get(sha256) ?? (await this.recover(sha256));
      if (recovered) indexed.set(sha256, recovered);
    }
    return [...indexed.values()];
  }

  private async recover(sha256: string): Promise<CacheEntry | undefined> {
    const path = this.blobPath(sha256);
    try {
      const bytes = await this.fs.readFile(path);
      if (sha256Hex(bytes) !== sha256) throw new Error('SHA-256 does not match');
      const bundle = readFirmwareBundle(bytes);
      const info = await this.fs.stat(path);
      const entry: CacheEntry = {
        sha256,
        deviceType: bundle.deviceType,
        version: bundle.version,
        size: bytes.length,
        fetchedAt: new Date(info.mtimeMs).toISOString(),
        source: 'recovered from cache directory',
      };
      this.recovered.set(sha256, entry);
      this.onEvent?.({ type: 'recovered', entry });
      return entry;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      // A blob that fails its check is removed here too: it would never be returned anyway.
      await removeDurable(this.fs, path).catch(() => undefined);
      this.onEvent?.({ type: 'removed-unreadable-blob', sha256, reason: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
  }
}
