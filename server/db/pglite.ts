import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { makePrivate } from '../../platform/private-files';
import { lockDataDir } from './data-dir-lock';
import type { Database, Queryable, QueryResult, SqlValue } from './database';
import { noteStatement } from './tables';

const PGLITE = Symbol('pglite');

/**
 * The extensions the schema uses (migration 16: trigram indexes for the device search). Every
 * PGlite that opens this service's data must load them, a backup being checked included: a
 * database whose catalog names an extension PGlite did not load fails every write to the indexed
 * tables ("could not access file \"pg_trgm\"").
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

function wrap(target: Pick<PGlite, 'query'>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
      noteStatement(sql);
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/**
 * PGlite runs one backend in this process; it serialises transactions itself, so a transaction
 * here is as isolated as SERIALIZABLE on a server.
 *
 * The data directory holds the keys' sealed values and the signing keys: it is the user's alone.
 * PGlite creates its files 0666 whatever the umask, so they are made private once it has opened
 * them and again when it closes (the 0700 directory keeps them from others meanwhile).
 *
 * A directory on disk is this process's alone while open (data-dir-lock.ts): opening one that
 * another process holds throws DataDirBusyError before anything in it is touched.
 */
export async function openPglite(dataDir: string, template?: Blob): Promise<Database> {
  const onDisk = !dataDir.startsWith('memory://');
  const lock = onDisk ? await lockDataDir(dataDir) : undefined;
  let db: PGlite;
  try {
    if (onDisk) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    db = await PGlite.create(dataDir, {
      extensions: PGLITE_EXTENSIONS,
      ...(template ? { loadDataDir: template } : {}),
    });
    if (onDisk) await makePrivate(dataDir);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const base = wrap(db);
  // This process is the database's only user: a lock need only order the callers in it.
  let lockTail: Promise<unknown> = Promise.resolve();
  const database: Database & { [PGLITE]: PGlite } = {
    [PGLITE]: db,
    kind: 'pglite',
    query: base.query,
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => db.transaction((tx) => work(wrap(tx))),
    exec: async (sql) => {
      await db.exec(sql);
    },
    withLock<T>(_lockId: number, work: () => Promise<T>): Promise<T> {
      const run = lockTail.then(work, work);
      lockTail = run.catch(() => undefined);
      return run;
    },
    poolUse: () => null,
    watchChanges: () => null,
    close: async () => {
      try {
        await db.close();
        if (onDisk) await makePrivate(dataDir);
      } finally {
        await lock?.release();
      }
    },
  };
  return database;
}

/**
 * The whole data directory as one tar (gzip'd for a backup): a dump of a fresh database with the
 * current schema starts other databases quickly, a dump of a used one is a backup.
 */
export async function dumpPglite(db: Database, compression: 'none' | 'gzip' = 'none'): Promise<Blob> {
  const raw = (db as Database & { [PGLITE]?: PGlite })[PGLITE];
  if (!raw) throw new Error('Not a PGlite database.');
  const dump = await raw.dumpDataDir(compression);
  return dump;
}
