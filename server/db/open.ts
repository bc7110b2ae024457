import type { Database, DatabaseOptions } from './database';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres, warnOn } from './postgres';
import { ensureSearchIndexes } from './search-indexes';

export const DEFAULT_DATA_DIR = '.provisioner-data/service';

/** Opens the database the options name (PostgreSQL wins over PGlite) and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.warn)
    : await openPglite(
        options.dataDir ?? process.env.PROVISIONER_SERVICE_DATA ?? DEFAULT_DATA_DIR,
        options.pgliteTemplate,
      );
  try {
    await migrate(db);
    // The service starts without them (migration 16), and says so on every start until they exist.
    const missing = await ensureSearchIndexes(db);
    if (missing) (options.warn ?? warnOn(process.stderr))({ reason: missing.reason }, missing.fix);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
