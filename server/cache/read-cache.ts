/**
 * Answers of read operations kept in memory, dropped whenever a transaction that wrote commits.
 * Only used on PGlite: its data directory belongs to this one process, so every write passes
 * through here. With a PostgreSQL server other instances write too, and nothing is cached.
 *
 * A read that raced with a write must not store what it read before the write: `begin()` takes the
 * generation before the query and `set()` stores only if no write committed since.
 */
export class ReadCache {
  private generation = 0;
  private readonly entries = new Map<string, unknown>();

  constructor(private readonly maxEntries = 5_000) {}

  get<T>(key: string): T | undefined {
    return this.entries.get(key) as T | undefined;
  }

  begin(): number {
    return this.generation;
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

  /** Reads through the cache: `load` runs (outside any transaction) only on a miss. */
  async through<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
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
