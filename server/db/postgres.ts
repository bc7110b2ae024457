import pg from 'pg';
import type { Database, Queryable, QueryResult, SqlValue } from './database';
import { RETRYABLE_CODES, sqlErrorCode } from './database';

// Return bigint (int8) and numeric as JS numbers, like PGlite does, so rows look the same on both.
// Counts and sizes in this schema stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

type PgClient = Pick<pg.PoolClient, 'query'>;

function normalise(params: readonly SqlValue[]): unknown[] {
  // pg sends Buffer as bytea but a plain Uint8Array as text; PGlite accepts both.
  return params.map((value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value));
}

function toUint8(value: unknown): unknown {
  return Buffer.isBuffer(value) ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : value;
}

function wrap(client: PgClient): Queryable {
  return {
    async query<Row>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<Row>> {
      const result = await client.query(sql, normalise(params));
      // bytea comes back as Buffer; hand out Uint8Array as PGlite does so callers see one type.
      const rows = result.rows.map((row: Record<string, unknown>) => {
        for (const key of Object.keys(row)) row[key] = toUint8(row[key]);
        return row;
      }) as Row[];
      return { rows, rowCount: result.rowCount ?? rows.length };
    },
  };
}

const MAX_ATTEMPTS = 5;

/**
 * Several stateless service instances may share one server: transactions run SERIALIZABLE and are
 * retried on serialization failures, so every rule checked inside one holds when it commits.
 */
export async function openPostgres(databaseUrl: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  // An idle pooled connection that the server closes (a restart, a failover, an administrator)
  // is reported here; without a listener it would be an uncaught exception that stops the
  // service. The pool has already dropped that client, and the next query opens a new one.
  pool.on('error', (error) => {
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: 'an idle PostgreSQL connection was closed by the server; it will be replaced', error: error.message })}\n`);
  });
  // Fail now, with the server's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const base = wrap(pool);
  return {
    kind: 'postgres',
    query: base.query,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          const result = await work(wrap(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // A healthy connection can always roll back; one that cannot is broken.
          broken = await client.query('ROLLBACK').then(
            () => false,
            () => true,
          );
          const code = sqlErrorCode(error);
          if (code !== undefined && RETRYABLE_CODES.has(code) && attempt < MAX_ATTEMPTS) continue;
          throw error;
        } finally {
          // A broken connection is closed, not handed to the next request.
          client.release(broken ? new Error('connection failed during a transaction') : undefined);
        }
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
