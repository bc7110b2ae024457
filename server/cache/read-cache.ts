import { CacheStats } from './cache-stats';

/**
 * Answers of read operations kept in memory while the data they were read from is unchanged.
 *
 * - A transaction that wrote through this instance clears it when it commits (`clear()`).
 * - On a PostgreSQL server other instances write too: each request reads the database's snapshot
 *   with its API key (server/auth/api-key-cache.ts) and hands it to `observe()`. Two equal
 *   snapshots mean that no transaction committed between them anywhere on the server, so what was
 *   read after the first is still what the database holds; any other snapshot clears the cache.
 *   A change committed through instance A is therefore seen by instance B on its very next request.
 *
 * A read that raced with a change must not store what it read before it: `begin()` takes the
 * generation before the query and `set()` stores only if the generation did not move since.
 */
export class ReadCache {
  private generation = 0;
  /** The snapshot the entries were read at (PostgreSQL), or null before the first one. */
  private snapshot: string | null = null;
  private readonly entries = new Map<string, unknown>();
  readonly stats = new CacheStats();

  constructor(private readonly maxEntries = 5_000) {}

  /** Answers held now. */
  get size(): number {
    return this.entries.size;
  }

  get<T>(key: string): T | undefined {
    return this.entries.get(key) as T | undefined;
  }

  begin(): number {
    return this.generation;
  }

  /** Whether nothing was written since `token` was taken (a key found then may still be used). */
  isCurrent(token: number): boolean {
    return token === this.generation;
  }

  set(key: string, value: unknown, token: number): void {
    if (token !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }

  /** Called after a transaction that wrote has committed (or failed: clearing is always safe). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The database's snapshot as of now (PostgreSQL): entries read at another one are dropped. */
  observe(snapshot: string): void {
    if (snapshot === this.snapshot) return;
    this.snapshot = snapshot;
    this.clear();
  }

  /** Reads through the cache: `load` runs (outside any transaction) only on a miss. */
  async through<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) {
      this.stats.hit();
      return hit;
    }
    this.stats.miss();
    const token = this.begin();
    const value = await load();
    this.set(key, value, token);
    return value;
  }
}

/**
 * Reads through the service's cache when there is one and `db` is not a transaction (a transaction
 * may see its own uncommitted writes, which must never be cached). Cached values are shared: callers
 * must not change them.
 */
export function readThrough<T>(ctx: { reads: ReadCache | null; db: unknown }, db: unknown, key: string, load: () => Promise<T>): Promise<T> {
  return ctx.reads && db === ctx.db ? ctx.reads.through(key, load) : load();
}
