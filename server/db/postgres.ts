import pg from 'pg';
import { hostname } from 'node:os';
import type { Database, DatabaseWarn, Queryable, QueryResult, SqlValue } from './database';
import { RETRYABLE_CODES, sqlErrorCode } from './database';
import { CHANGES_CHANNEL, ChangeFeed } from './change-feed';
import { DatabaseUnavailableError, isConnectionFailure, TransactionConflictError } from './failures';
import { connectionSettings } from './password-file';
import { ALL_TABLES, isReadStatement, joinTables, noteStatement, tablesNamedIn } from './tables';

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
      noteStatement(sql);
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

/** An INSERT, UPDATE or DELETE that affected no row (ON CONFLICT DO NOTHING, a no-op update) changed nothing. */
const isRowChange = (sql: string) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql);

interface Writes {
  wrote: boolean;
  keys: boolean;
  /** The tables the writes named (server/db/tables.ts): the caches drop only what was read from them. */
  tables: Set<string> | typeof ALL_TABLES;
}

const noWrites = (): Writes => ({ wrote: false, keys: false, tables: new Set() });

function noteWrite(writes: Writes, sql: string, rowCount: number): void {
  if (isReadStatement(sql) || (isRowChange(sql) && rowCount === 0)) return;
  writes.wrote = true;
  writes.tables = joinTables(writes.tables, tablesNamedIn(sql));
  // A write that may concern API keys (their roles, their existence): one naming no known table may.
  if (writes.tables === ALL_TABLES || writes.tables.has('api_keys')) writes.keys = true;
}

/** Notes in `writes` what the statements of the transaction may have changed. */
function noticingWrites(tx: Queryable, writes: Writes): Queryable {
  return {
    async query<Row>(sql: string, params?: readonly SqlValue[]) {
      const result = await tx.query<Row>(sql, params);
      noteWrite(writes, sql, result.rowCount);
      return result;
    },
  };
}

/**
 * Serialization failures are retried after a short random pause that grows with each attempt, so
 * that transactions which collided do not collide again in step.
 */
const MAX_ATTEMPTS = 10;
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));

/** Connections per instance; several instances share one server (max_connections is 100 by default). */
const POOL_SIZE = 10;

/** Warnings where no logger was given, in the shape of pino's lines (level 40 is its warn). */
export function warnOn(stream: NodeJS.WritableStream): DatabaseWarn {
  return (fields, message) => {
    stream.write(
      `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg: message })}\n`,
    );
  };
}

const warnOnStderr = warnOn(process.stderr);

/**
 * Several stateless service instances may share one server: transactions run SERIALIZABLE and are
 * retried on serialization failures, so every rule checked inside one holds when it commits.
 * While the server is away (a restart, a failover) requests fail with DatabaseUnavailableError, and
 * the pool connects again by itself once it is back.
 */
export async function openPostgres(databaseUrl: string, warn: DatabaseWarn = warnOnStderr): Promise<Database> {
  // A connection that cannot be had in 5 s means the server is away: answer 503 rather than queue.
  const pool = new pg.Pool({ ...connectionSettings(databaseUrl), max: POOL_SIZE, connectionTimeoutMillis: 5_000 });
  // An idle pooled connection that the server closes (a restart, a failover, an administrator)
  // is reported here; without a listener it would be an uncaught exception that stops the
  // service. The pool has already dropped that client, and the next query opens a new one.
  pool.on('error', (error) => {
    warn({ error: error.message }, 'an idle PostgreSQL connection was closed by the server; it will be replaced');
  });
  // Fail now, with the server's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const base = wrap(pool);
  // Every write is announced to the instances sharing the database (their caches drop what it changed).
  const feed = new ChangeFeed(databaseUrl);
  // After a statement that wrote outside a transaction. Best effort: the write stands whatever
  // happens to the announcement, and must not be repeated because of it.
  const announceAfter = async (sql: string, rowCount: number) => {
    const writes = noWrites();
    noteWrite(writes, sql, rowCount);
    if (!writes.wrote) return;
    await base.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, feed.nextToken(writes.keys, writes.tables)]).then(
      () => undefined,
      () => undefined,
    );
  };
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> {
      try {
        const result = await base.query<Row>(sql, params);
        await announceAfter(sql, result.rowCount);
        return result;
      } catch (error) {
        if (!isConnectionFailure(error)) throw error;
        // A pooled connection the server closed while idle may be handed out once more: a
        // statement on its own either ran whole or not at all, so one more try on a new one is safe.
        try {
          const result = await base.query<Row>(sql, params);
          await announceAfter(sql, result.rowCount);
          return result;
        } catch (again) {
          throw isConnectionFailure(again) ? new DatabaseUnavailableError(again) : again;
        }
      }
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw isConnectionFailure(error) ? new DatabaseUnavailableError(error) : error;
        }
        let broken = false;
        let committing = false;
        let echo: { arrived: Promise<void>; cancel(): void } | undefined;
        // A connection the server closes between two statements reports it as an 'error' event of
        // the client; unheard, that event would stop the process. The next statement fails anyway.
        const onLost = () => {
          broken = true;
        };
        client.on('error', onLost);
        try {
          await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
          const writes = noWrites();
          const result = await work(noticingWrites(wrap(client), writes));
          // Sent inside the transaction, the notification goes out with the commit or not at all.
          const token = writes.wrote ? feed.nextToken(writes.keys, writes.tables) : undefined;
          if (token) await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, token]);
          echo = token ? feed.expect(token) : undefined;
          committing = true;
          await client.query('COMMIT');
          await echo?.arrived;
          return result;
        } catch (error) {
          echo?.cancel();
          // A healthy connection can always roll back; one that cannot is broken.
          broken = await client.query('ROLLBACK').then(
            () => false,
            () => true,
          );
          if (isConnectionFailure(error)) {
            // Before COMMIT nothing was applied and the work may run again on a new connection;
            // a COMMIT without an answer may have been applied, so it is never repeated here.
            if (!committing && attempt === 1) continue;
            throw new DatabaseUnavailableError(error);
          }
          const code = sqlErrorCode(error);
          if (code !== undefined && RETRYABLE_CODES.has(code)) {
            if (attempt >= MAX_ATTEMPTS) throw new TransactionConflictError(attempt, error);
            await pause(attempt);
            continue;
          }
          throw error;
        } finally {
          client.off('error', onLost);
          // A broken connection is closed, not handed to the next request.
          client.release(broken ? new Error('connection failed during a transaction') : undefined);
        }
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
      // Schema changes (migrations): everything may differ (a statement naming no table stands for all).
      await announceAfter('-- schema change', 1);
    },
    async withLock<T>(lockId: number, work: () => Promise<T>): Promise<T> {
      // A session lock on a connection of its own, held across the transactions `work` runs on
      // other connections; the server releases it if this process dies.
      const holder = await pool.connect();
      let broken = false;
      const onLost = () => {
        broken = true;
      };
      holder.on('error', onLost);
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [lockId]);
        try {
          return await work();
        } finally {
          broken = await holder.query('SELECT pg_advisory_unlock($1)', [lockId]).then(
            () => false,
            () => true,
          );
        }
      } finally {
        holder.off('error', onLost);
        holder.release(broken ? new Error('the advisory lock could not be released') : undefined);
      }
    },
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_SIZE }),
    watchChanges: (listener) => feed.watch(listener),
    close: async () => {
      await feed.close();
      await pool.end();
    },
  };
}
