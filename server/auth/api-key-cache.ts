import type { Database } from '../db/database';
import type { Freshness } from '../cache/generation';
import { HeardEntries } from '../cache/heard-entries';
import { findApiKeyByValue, type ApiKeyRecord } from '../store/api-keys';
import { hashApiKey } from './api-key-value';

interface KeptKey {
  record: ApiKeyRecord;
  /** This cache's generation when the key was looked up, and the linked freshness's. */
  own: number;
  linked: number;
}

/**
 * Finds the key of each request and keeps the keys it found while nothing they came from changed:
 * - PostgreSQL: until a commit that changed API keys is heard, from any instance or process
 *   (server/db/change-feed.ts calls `clear()`), and never while commits cannot be heard
 *   (`suspend()`).
 * - PGlite: until any write commits (`staleWith`, the read cache's generation): every write passes
 *   through this process.
 * So a key revoked or given another role is refused or judged by its new role on the very next
 * request, whichever instance changed it.
 */
export class ApiKeyCache extends HeardEntries<KeptKey> {
  constructor(private readonly staleWith?: Freshness) {
    super(10_000);
  }

  private current(entry: { own: number; linked: number }): boolean {
    return this.generation.isCurrent(entry.own) && (!this.staleWith || this.staleWith.isCurrent(entry.linked));
  }

  async lookup(db: Database, key: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashApiKey(key);
    const hit = this.entries.get(hash);
    if (hit && this.current(hit)) {
      this.stats.hit();
      return hit.record;
    }
    this.stats.miss();
    const taken = { own: this.generation.begin(), linked: this.staleWith?.begin() ?? 0 };
    const record = await findApiKeyByValue(db, key);
    // Unknown keys are not kept: a key issued a moment ago must work at once.
    if (record && this.current(taken)) this.keep(hash, { record, ...taken });
    else this.entries.delete(hash);
    return record;
  }

  /** Keys may have changed somewhere: look each up again. */
  clear(): void {
    this.clearAll();
  }

  /** Drops a key at once (its role is being changed); the commit that follows clears the rest. */
  evict(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.record.id === keyId) this.entries.delete(hash);
  }
}
