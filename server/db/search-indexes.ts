import type { Database } from './database';
import { MIGRATION_LOCK } from './migrate';

/** What to tell the operator when the device search runs without its trigram indexes. */
export interface MissingSearchIndexes {
  /** The database's own reason (a missing privilege, a missing contrib package). */
  reason: string;
  /** What to do about it, in one sentence that names the SQL line to run. */
  fix: string;
}

export const SEARCH_INDEXES_FIX =
  'device search by name, model or type reads every device of the organization until the trigram indexes exist: have the database owner (or a superuser) run `CREATE EXTENSION pg_trgm;` in this database (on Debian it comes with the postgresql package; elsewhere install postgresql-contrib), then start the service or run `migrate` again, which creates the indexes';

/**
 * Creates the device search's trigram indexes if migration 16 could not (the role may not create
 * pg_trgm and the owner has since done it), under the migration lock so that instances starting
 * together create each index once. Returns undefined when the indexes exist, else why they do not.
 * A database migrated by an older build (no device_search_indexes function) has nothing to do here.
 */
export async function ensureSearchIndexes(db: Database): Promise<MissingSearchIndexes | undefined> {
  const reason = await db.withLock(MIGRATION_LOCK, async () => {
    const known = await db.query<{ fn: string | null }>(
      `SELECT to_regprocedure('device_search_indexes()')::text AS fn`,
    );
    if (known.rows[0]?.fn === null) return null;
    const { rows } = await db.query<{ missing: string | null }>('SELECT device_search_indexes() AS missing');
    return rows[0]?.missing ?? null;
  });
  return reason === null ? undefined : { reason, fix: SEARCH_INDEXES_FIX };
}
