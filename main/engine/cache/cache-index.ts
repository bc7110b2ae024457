import { join } from 'node:path';
import { z } from 'zod';
import {
  errnoCode,
  readFileIfExists,
  removeStaleTemps,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';
import { quarantineFile } from '../../../platform/quarantine';
import { TEMP_GRACE_MS, type BlobStore } from './blob-store';
import { cacheEntrySchema, type CacheEntry, type CacheEvent } from './cache-entry';
import { originFromSourceLabel } from './firmware-source';
import { checkStoredBundle } from './verified-bundle';

/**
 * `index.json`: which type and version each blob holds, where it came from and when. The blobs are
 * the truth: the index is rewritten atomically (temp + fsync + rename) and, if lost or behind (a
 * crash, two processes writing it at once), rebuilt from the blobs on the next read.
 *
 * An index that cannot be read (garbage, truncated, entries that are not entries) is set aside in
 * quarantine with its bytes intact and replaced by the entries of it that still read; the blobs
 * it no longer names are re-indexed from their own manifests, without origins.
 */

const FORMAT = 'provisioner-firmware-cache/1';
const INDEX = 'index.json';

const indexSchema = z.object({
  format: z.literal(FORMAT),
  entries: z.array(z.unknown()),
});

interface ReadIndex {
  entries: CacheEntry[];
  /** Why (part of) the file could not be read; undefined when all of it could. */
  damage: string | undefined;
}

/** The entries of an index file, each checked on its own so that one bad entry costs only itself. */
function parseIndex(raw: Buffer): ReadIndex {
  let envelope: z.infer<typeof indexSchema>;
  try {
    envelope = indexSchema.parse(JSON.parse(raw.toString('utf8')));
  } catch (err) {
    return { entries: [], damage: `not a cache index (${err instanceof SyntaxError ? 'not JSON' : 'wrong shape'})` };
  }
  const entries: CacheEntry[] = [];
  let bad = 0;
  for (const candidate of envelope.entries) {
    const parsed = cacheEntrySchema.safeParse(candidate);
    if (!parsed.success) {
      bad += 1;
      continue;
    }
    const entry = parsed.data;
    const derived = entry.origins.length === 0 ? originFromSourceLabel(entry.source) : undefined;
    entries.push(derived ? { ...entry, origins: [derived] } : entry);
  }
  return { entries, damage: bad > 0 ? `${bad} of its ${envelope.entries.length} entries cannot be read` : undefined };
}

function serialize(entries: CacheEntry[]): string {
  return JSON.stringify({ format: FORMAT, entries }, null, 2) + '\n';
}

export class CacheIndex {
  private ready: Promise<void> | undefined;
  /** Serialises read-modify-write within the process. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Blobs re-indexed in this process, so each is opened and reported once. */
  private readonly recovered = new Map<string, CacheEntry>();
  /** A damaged index being set aside, so that concurrent readers do it once. */
  private settingAside: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly quarantineDir: string,
    private readonly blobs: BlobStore,
    private readonly fs: FileSystem,
    private readonly now: () => number,
    private readonly onEvent: ((event: CacheEvent) => void) | undefined,
  ) {}

  /** Creates the directories and clears temp files crashed writes left behind, once per process. */
  open(): Promise<void> {
    this.ready ??= (async () => {
      await this.blobs.open();
      await removeStaleTemps(this.fs, this.dir, TEMP_GRACE_MS, this.now());
    })();
    return this.ready;
  }

  /**
   * The index reconciled with the blobs on disk: entries without a blob are dropped, blobs without
   * an entry (the index was lost, or another process's write won) are opened and re-indexed.
   */
  async entries(): Promise<CacheEntry[]> {
    await this.open();
    const entries = await this.readIndex();
    const present = await this.blobs.list();
    const indexed = new Map<string, CacheEntry>();
    for (const entry of entries) if (present.has(entry.sha256)) indexed.set(entry.sha256, entry);
    for (const sha256 of present) {
      if (indexed.has(sha256)) continue;
      const recovered = this.recovered.get(sha256) ?? (await this.recover(sha256));
      if (recovered) indexed.set(sha256, recovered);
    }
    return [...indexed.values()];
  }

  /** Rewrites the index with what `change` makes of the current entries, one change at a time. */
  update(change: (entries: CacheEntry[]) => CacheEntry[] | Promise<CacheEntry[]>): Promise<void> {
    const run = this.queue.then(async () => {
      const next = await change(await this.entries());
      await writeFileDurable(this.fs, join(this.dir, INDEX), serialize(next));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async readIndex(): Promise<CacheEntry[]> {
    const path = join(this.dir, INDEX);
    const raw = await readFileIfExists(this.fs, path);
    if (!raw) return [];
    const read = parseIndex(raw);
    if (read.damage === undefined) return read.entries;
    this.settingAside ??= this.setAside(path, raw, read).finally(() => {
      this.settingAside = undefined;
    });
    await this.settingAside;
    return read.entries;
  }

  /** Moves the damaged file to quarantine and writes back what of it still reads (origins included). */
  private async setAside(path: string, raw: Buffer, read: ReadIndex): Promise<void> {
    // Another process may have set it aside and written a good one meanwhile: that one stays.
    const current = await readFileIfExists(this.fs, path);
    if (!current?.equals(raw)) return;
    const file = await quarantineFile(this.fs, path, {
      quarantineDir: this.quarantineDir,
      reason: `the firmware cache index is damaged: ${read.damage}`,
      now: this.now(),
    });
    if (!file) return;
    this.onEvent?.({ type: 'quarantined', file });
    await writeFileDurable(this.fs, path, serialize(read.entries));
  }

  private async recover(sha256: string): Promise<CacheEntry | undefined> {
    try {
      const bytes = await this.blobs.read(sha256);
      if (!bytes) return undefined; // removed meanwhile (pruned or evicted by another process)
      const checked = checkStoredBundle(sha256, bytes);
      if ('reason' in checked) throw new Error(checked.reason);
      const entry: CacheEntry = {
        sha256,
        deviceType: checked.bundle.deviceType,
        version: checked.bundle.version,
        size: bytes.length,
        fetchedAt: (await this.blobs.writtenAt(sha256)).toISOString(),
        source: 'recovered from cache directory',
        // Who served it was in the index that was lost: unknown, so it stands in for no organization offline.
        origins: [],
        imageSha256: checked.bundle.imageSha256,
      };
      this.recovered.set(sha256, entry);
      this.onEvent?.({ type: 'recovered', entry });
      return entry;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      // A blob that fails its check is set aside here too: it would never be returned anyway.
      const reason = `a cached firmware bundle is unreadable: ${err instanceof Error ? err.message : String(err)}`;
      const file = await this.blobs.quarantine(sha256, reason).catch(() => undefined);
      if (file) this.onEvent?.({ type: 'quarantined', file });
      return undefined;
    }
  }
}
