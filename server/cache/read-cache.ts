import { ALL_TABLES, noteTablesRead, overlaps, recordingReads, type TableSet } from '../db/tables';
import type { Freshness } from './generation';
import { HeardEntries } from './heard-entries';

interface Kept {
  value: unknown;
  /** The tables the answer was read from (server/db/tables.ts). */
  tables: TableSet;
  /** What the answer weighs against the cache's budget (answerWeight). */
  weight: number;
}

/**
 * The characters of an answer's JSON: roughly what it holds, whatever its shape. An answer the
 * count of entries alone does not bound: a device's file plan names every peer of its
 * configuration, so a few hundred plans of a large configuration hold tens of megabytes. An answer
 * that has no JSON (none of the service's reads) weighs as much as the whole budget: never kept.
 */
export function answerWeight(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The default budget: about 16 MiB of JSON, some 50 MB of objects in the heap. */
export const READ_CACHE_MAX_WEIGHT = 16 * 1024 * 1024;

interface Flight {
  token: number;
  answer: Promise<{ value: unknown; tables: TableSet }>;
}

/**
 * Answers of read operations kept in memory while the tables they were read from are unchanged.
 *
 * - Each answer remembers the tables its statements named (recorded as they ran,
 *   server/db/tables.ts); a commit drops the answers read from a table it wrote, and only those:
 *   a confirmation (devices, confirmations) leaves the configurations' answers in place.
 * - PGlite: a transaction that wrote through this instance drops them when it commits (`clear()`).
 * - On a PostgreSQL server other instances write too: every commit that changed something is
 *   announced with the tables it wrote (server/db/change-feed.ts) to every instance, this one
 *   included, as it happens (`changed()`). While this instance cannot hear the announcements (its
 *   listening connection is down), the cache is suspended: nothing is kept, every read goes to
 *   the database.
 *
 * A read that raced with a change of its tables must not keep what it read before it: `begin()`
 * takes the generation before the query, and the answer is kept only if none of its tables
 * changed since. Concurrent misses of one key share one load, but only while nothing at all has
 * changed since that load began, so a request never gets an answer older than the last change
 * this instance heard before the request came.
 *
 * Bounded twice: at most `entryLimit` answers, and at most `maxWeight` of them by weight (their
 * JSON's characters, answerWeight), because an answer's size grows with the configuration it was
 * read from (issue 30: a file plan per device, each naming every peer).
 */
export class ReadCache extends HeardEntries<Kept> implements Freshness {
  private announced = false;
  /** The generation at which each table last changed, and at which everything last did. */
  private readonly tableChangedAt = new Map<string, number>();
  private allChangedAt = 0;
  private readonly flights = new Map<string, Flight>();
  /** What the answers held now weigh together (answerWeight). */
  private heldWeight = 0;

  constructor(
    private readonly entryLimit = 5_000,
    private readonly maxWeight = READ_CACHE_MAX_WEIGHT,
  ) {
    super(entryLimit);
  }

  /** What the answers held now weigh together: at most the budget given to the constructor. */
  get weight(): number {
    return this.heldWeight;
  }

  begin(): number {
    return this.generation.begin();
  }

  /** Whether nothing at all was written since `token` was taken (a key found then may still be used). */
  isCurrent(token: number): boolean {
    return this.generation.isCurrent(token);
  }

  /** Whether an answer read from `tables` since `token` may be kept: heard throughout, and none of them changed since. */
  private keepable(token: number, tables: TableSet): boolean {
    if (!this.generation.isCurrent(this.generation.begin()) || this.allChangedAt > token) return false;
    if (tables === ALL_TABLES) return this.generation.isCurrent(token);
    for (const table of tables) if ((this.tableChangedAt.get(table) ?? 0) > token) return false;
    return true;
  }

  /**
   * Called after a transaction that wrote `tables` through this instance has committed (or
   * failed). Where commits are announced (PostgreSQL), the announcement has dropped what it
   * changed already, and only if the commit changed something: the writer waits for it before
   * answering. Then this does nothing, so that a download that issued nothing new drops nothing.
   */
  clear(tables?: TableSet): void {
    if (!this.announced) this.changed(tables);
  }

  /** Something committed that wrote `tables` (anything, when absent): drop the answers read from them. */
  changed(tables: TableSet = ALL_TABLES): void {
    this.generation.advance();
    const now = this.generation.begin();
    if (tables === ALL_TABLES) {
      this.allChangedAt = now;
      this.dropAll();
      return;
    }
    for (const table of tables) this.tableChangedAt.set(table, now);
    for (const [key, kept] of this.entries)
      if (overlaps(kept.tables, tables)) {
        this.entries.delete(key);
        this.heldWeight -= kept.weight;
      }
  }

  private dropAll(): void {
    this.entries.clear();
    this.heldWeight = 0;
  }

  /**
   * Keeps an answer within both bounds: the count of entries and their weight. As a full cache of
   * either kind, one the answer would overfill starts over (answers are cheap to load again); an
   * answer heavier than the whole budget is not kept at all.
   */
  private keepWeighed(key: string, value: unknown, tables: TableSet): void {
    const weight = answerWeight(value);
    if (weight > this.maxWeight) return;
    const replaced = this.entries.get(key);
    if (replaced) {
      this.entries.delete(key);
      this.heldWeight -= replaced.weight;
    }
    if (this.entries.size >= this.entryLimit || this.heldWeight + weight > this.maxWeight) this.dropAll();
    this.keep(key, { value, tables, weight });
    this.heldWeight += weight;
  }

  override clearAll(): void {
    this.changed(ALL_TABLES);
  }

  override suspend(): void {
    super.suspend();
    this.heldWeight = 0;
    this.allChangedAt = this.generation.begin();
  }

  override resume(): void {
    super.resume();
    this.heldWeight = 0;
    this.allChangedAt = this.generation.begin();
  }

  /** From now on commits are announced to this cache (`changed()`), local ones included. */
  heardFromDatabase(): void {
    this.announced = true;
  }

  /** Reads through the cache: `load` runs (outside any transaction) only on a miss. */
  async through<T>(key: string, load: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.stats.hit();
      // A cached read inside a cached read: the outer answer depends on these tables too.
      noteTablesRead(kept.tables);
      return kept.value as T;
    }
    const flight = this.flights.get(key);
    if (flight && this.generation.isCurrent(flight.token)) {
      this.stats.hit();
      const { value, tables } = await flight.answer;
      noteTablesRead(tables);
      return value as T;
    }
    this.stats.miss();
    const token = this.begin();
    const answer = recordingReads(load);
    this.flights.set(key, { token, answer });
    try {
      const { value, tables } = await answer;
      if (this.keepable(token, tables)) this.keepWeighed(key, value, tables);
      return value;
    } finally {
      if (this.flights.get(key)?.answer === answer) this.flights.delete(key);
    }
  }
}

/**
 * Reads through the service's cache when there is one and `db` is not a transaction (a transaction
 * may see its own uncommitted writes, which must never be cached). Cached values are shared: callers
 * must not change them.
 */
export function readThrough<T>(
  ctx: { reads: ReadCache | null; db: unknown },
  db: unknown,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  return ctx.reads && db === ctx.db ? ctx.reads.through(key, load) : load();
}
