import type { CatchUpCounts, Database } from './db/database';
import type { ApiKeyCache } from './auth/api-key-cache';
import type { ReadCache } from './cache/read-cache';
import type { ServiceSecrets } from './store/secrets';

/** What every operation handler can reach: the database, the service's secrets and the key cache. */
export interface ServiceContext {
  db: Database;
  secrets: ServiceSecrets;
  keys: ApiKeyCache;
  /** Read answers kept while no commit changed the data (server/cache/read-cache.ts); null turns the cache off (benchmarks). */
  reads: ReadCache | null;
  /** The service's version, reported by the version operations. */
  version: string;
  /**
   * Before an operation reads anything it may hold: waits until the commits of other instances
   * that completed before the request have been heard, or drops all it holds when that cannot be
   * known. Absent where this process is the only writer (PGlite).
   */
  catchUp?: () => Promise<void>;
  /** How many catch-ups were asked for and how many queries they took (for /metrics). */
  catchUps?: CatchUpCounts;
}
