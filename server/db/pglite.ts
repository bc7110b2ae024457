import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, QueryResult, SqlValue } from './database';

const PGLITE = Symbol('pglite');

function wrap(target: Pick<PGlite, 'query'>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/**
 * PGlite runs one backend in this process; it serialises transactions itself, so a transaction
 * here is as isolated as SERIALIZABLE on a server.
 */
export async function openPglite(dataDir: string, template?: Blob): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir, template ? { loadDataDir: template } : {});
  const base = wrap(db);
  const database: Database & { [PGLITE]: PGlite } = {
    [PGLITE]: db,
    kind: 'pglite',
    query: base.query,
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => db.transaction((tx) => work(wrap(tx))),
    exec: async (sql) => {
      await db.exec(sql);
    },
    close: () => db.close(),
  };
  return database;
}

/** A dump of a fresh database with the current schema, to start other databases from quickly. */
export async function dumpPglite(db: Database): Promise<Blob> {
  const raw = (db as Database & { [PGLITE]?: PGlite })[PGLITE];
  if (!raw) throw new Error('Not a PGlite database.');
  const dump = await raw.dumpDataDir('none');
  return dump;
}
