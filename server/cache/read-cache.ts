import { CacheStats } from './cache-stats';
import { Generation, type Freshness } from './generation';

/**
 * Answers of read operations kept in memory while the data they were read from is unchanged.
 *
 * - PGlite: a transaction that wrote through this instance clears it when it commits (`clear()`).
 * - On a PostgreSQL server other instances write too: every commit that changed something is
 *   announced (server/db/change-feed.ts) and clears the cache of every instance, this one
 *   included, as it happens (`changed()`). While this
 *   instance cannot hear the announcements (its listening connection is down), the cache is
 *   suspended: nothing is kept, every read goes to the database.
 *
 * A read that raced with a change must not store what it read before it: `begin()` takes the
 * generation before the query and `set()` stores only if the generation did not move since.
 */
export class ReadCache implements Freshness {
  private readonly generation = new Generation();
  private announced = false;
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
    return this.generation.begin();
  }

  /** Whether nothing was written since `token` was taken (a key found then may still be used). */
  isCurrent(token: number): boolean {
    return this.generation.isCurrent(token);
  }

  set(key: string, value: unknown, token: number): void {
    if (!this.isCurrent(token)) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }

  /**
   * Called after a transaction that wrote through this instance has committed (or failed). Where
   * commits are announced (PostgreSQL), the announcement has cleared the cache already, and only
   * if the commit changed something: the writer waits for it before answering. Then this does
   * nothing, so that a download that issued nothing new does not empty the cache.
   */
  clear(): void {
    if (!this.announced) this.changed();
  }

  /** Something committed: drop every answer. */
  changed(): void {
    this.generation.advance();
    this.entries.clear();
  }

  /** From now on commits are announced to this cache (`changed()`), local ones included. */
  heardFromDatabase(): void {
    this.announced = true;
  }

  /** Changes can no longer be heard: keep nothing until `resume()`. */
  suspend(): void {
    this.generation.suspend();
    this.entries.clear();
  }

  /** Changes are heard again: start keeping answers, from empty. */
  resume(): void {
    this.generation.resume();
    this.entries.clear();
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
