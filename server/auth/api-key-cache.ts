import type { Database } from '../db/database';
import type { ReadCache } from '../cache/read-cache';
import { CacheStats } from '../cache/cache-stats';
import { findApiKeyByValue, findApiKeyByValueWithSnapshot, type ApiKeyRecord } from '../store/api-keys';
import { hashApiKey } from './api-key-value';

/**
 * Finds the key of each request. A key revoked or given another role is refused or judged by its
 * new role on the very next request, whichever instance changed it:
 *
 * - PGlite: this process is the database's only user, so every write passes through it. A key
 *   found is kept until a transaction that wrote commits (the read cache's generation moves).
 * - PostgreSQL: other instances write too, so nothing is kept. Each request reads its key together
 *   with the database's snapshot, in one round trip, and hands the snapshot to the read cache,
 *   which drops what it read before any commit anywhere.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { record: ApiKeyRecord; token: number }>();
  readonly stats = new CacheStats();

  constructor(
    /** Whose generation says whether a write committed since a key was found. */
    private readonly reads: ReadCache,
    private readonly kind: Database['kind'],
  ) {}

  async lookup(db: Database, key: string): Promise<ApiKeyRecord | undefined> {
    if (this.kind === 'postgres') {
      this.stats.miss();
      const { record, snapshot } = await findApiKeyByValueWithSnapshot(db, key);
      this.reads.observe(snapshot);
      return record;
    }
    const hash = hashApiKey(key);
    const hit = this.entries.get(hash);
    if (hit && this.reads.isCurrent(hit.token)) {
      this.stats.hit();
      return hit.record;
    }
    this.stats.miss();
    const token = this.reads.begin();
    const record = await findApiKeyByValue(db, key);
    // Unknown keys are not kept: a key issued a moment ago must work at once.
    if (record && this.reads.isCurrent(token)) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(hash, { record, token });
    } else {
      this.entries.delete(hash);
    }
    return record;
  }

  /** Drops a key at once (its role is being changed); the commit that follows clears the rest. */
  evict(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.record.id === keyId) this.entries.delete(hash);
  }
}
