import type { Queryable } from '../db/database';
import { findApiKeyByValue, type ApiKeyRecord } from '../store/api-keys';
import { hashApiKey } from './api-key-value';

/**
 * Remembers recently seen keys for a few seconds so that a read costs one query, not two.
 * A role change made through this instance is seen at once (it evicts the key); one made through
 * another instance sharing the database is seen within `ttlMs`.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  async lookup(db: Queryable, key: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = this.entries.get(hash);
    if (hit && hit.expires > now) return hit.record;
    const record = await findApiKeyByValue(db, key);
    // Unknown keys are not cached: a key issued a moment ago must work at once.
    if (record && this.ttlMs > 0) {
      if (this.entries.size > 10_000) this.entries.clear();
      this.entries.set(hash, { record, expires: now + this.ttlMs });
    } else {
      this.entries.delete(hash);
    }
    return record;
  }

  evict(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.record?.id === keyId) this.entries.delete(hash);
  }
}
