import { join } from 'node:path';
import { z } from 'zod';
import { errnoCode, readFileIfExists, removeStaleTemps, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { TEMP_GRACE_MS, type BlobStore } from './blob-store';
import { cacheEntrySchema, type CacheEntry, type CacheEvent } from './cache-entry';
import { checkStoredBundle } from './verified-bundle';

/**
 * `index.json`: which type and version each blob holds, where it came from and when. The blobs are
 * the truth: the index is rewritten atomically (temp + fsync + rename) and, if lost or behind (a
 * crash, two processes writing it at once), rebuilt from the blobs on the next read.
 */

const FORMAT = 'provisioner-firmware-cache/1';
const INDEX = 'index.json';

const indexSchema = z.object({
  format: z.literal(FORMAT),
  entries: z.array(cacheEntrySchema),
});

export class CacheIndex {
  private ready: Promise<void> | undefined;
  /** Serialises read-modify-write within the process. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Blobs re-indexed in this process, so each is opened and reported once. */
  private readonly recovered = new Map<string, CacheEntry>();

  constructor(
    private readonly dir: string,
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
    let entries: CacheEntry[] = [];
    const raw = await readFileIfExists(this.fs, join(this.dir, INDEX));
    if (raw) {
      try {
        entries = indexSchema.parse(JSON.parse(raw.toString('utf8'))).entries;
      } catch {
        entries = []; // rebuilt from the blobs below
      }
    }
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
      await writeFileDurable(this.fs, join(this.dir, INDEX), JSON.stringify({ format: FORMAT, entries: next }, null, 2) + '\n');
    });
    this.queue = run.catch(() => undefined);
    return run;
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
      };
      this.recovered.set(sha256, entry);
      this.onEvent?.({ type: 'recovered', entry });
      return entry;
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      // A blob that fails its check is removed here too: it would never be returned anyway.
      await this.blobs.remove(sha256).catch(() => undefined);
      this.onEvent?.({ type: 'removed-unreadable-blob', sha256, reason: err instanceof Error ? err.message : String(err) });
      return undefined;
    }
  }
}
