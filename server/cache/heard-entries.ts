import { CacheStats } from './cache-stats';
import { Generation } from './generation';

/**
 * What the read cache and the API key cache share: entries kept in memory only while the database
 * they came from can be heard changing. A change that may concern them drops them (`clearAll()`,
 * or a subclass's finer drop); while changes cannot be heard (`suspend()`: the listening connection
 * is down) nothing is kept, and from `resume()` on the cache starts empty. The generation moves
 * with each of these, so that a lookup that raced with one does not keep what it found before.
 */
export class HeardEntries<Entry> {
  protected readonly entries = new Map<string, Entry>();
  protected readonly generation = new Generation();
  readonly stats = new CacheStats();

  constructor(private readonly maxEntries: number) {}

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** Anything may have changed: drop every entry. */
  clearAll(): void {
    this.generation.advance();
    this.entries.clear();
  }

  /** Changes can no longer be heard: keep nothing until `resume()`. */
  suspend(): void {
    this.generation.suspend();
    this.entries.clear();
  }

  /** Changes are heard again: start keeping entries, from empty. */
  resume(): void {
    this.generation.resume();
    this.entries.clear();
  }

  /** Keeps an entry; a full cache starts over rather than tracking use (entries are cheap to load again). */
  protected keep(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, entry);
  }
}
