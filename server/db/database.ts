import type { TableSet } from './tables';

/**
 * One query layer over PGlite (embedded, file-backed) and a PostgreSQL server (`pg`). Every store
 * function takes a `Queryable`, so the same SQL runs inside or outside a transaction on both.
 */
export type SqlValue =
  string | number | boolean | null | Date | Uint8Array | readonly unknown[] | Record<string, unknown>;

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws,
   * so a failed request changes nothing.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` while holding the advisory lock `lockId`: every process sharing the database that
   * asks for the same lock waits until `work` has finished (or its process has died).
   */
  withLock<T>(lockId: number, work: () => Promise<T>): Promise<T>;
  /** The connections open to a server now; null for PGlite (one backend in this process). */
  poolUse(): PoolUse | null;
  /**
   * Hears every commit that wrote, by any process using this database (PostgreSQL: every instance
   * announces its writes; server/db/change-feed.ts). Null for PGlite, whose only writer is this
   * process.
   */
  watchChanges(listener: ChangeListener): Promise<ChangeWatch> | null;
  close(): Promise<void>;
}

/** A watch on the commits of every instance sharing the database. */
export interface ChangeWatch {
  stop(): Promise<void>;
  /**
   * True once every commit that completed before the call has been heard (see
   * ChangeFeed.caughtUp); false when that cannot be known.
   */
  caughtUp(): Promise<boolean>;
  /** How many catch-ups were asked for and how many queries they took (live counts). */
  readonly catchUps: CatchUpCounts;
}

export interface CatchUpCounts {
  /** Catch-ups asked for while listening (one per request). */
  requests: number;
  /** Queries sent on the listening connection for them: the others shared one. */
  queries: number;
}

export interface ChangeListener {
  /**
   * Something committed: whatever was read from `tables` before may be out of date (all of them
   * when absent); `keys` when API keys may have changed too (a role, a revocation).
   */
  changed(keys: boolean, tables?: TableSet): void;
  /** Whether commits are being heard now; while they are not, nothing read may be kept. */
  listening(heard: boolean): void;
}

export interface PoolUse {
  /** Open connections, busy or idle. */
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
  max: number;
}

export interface DatabaseOptions {
  /** PGlite data directory; used when no `databaseUrl` is given. `memory://` keeps it in memory. */
  dataDir?: string;
  /** A PostgreSQL connection string; wins over `dataDir`. */
  databaseUrl?: string;
  /**
   * A PGlite data directory dump (from `dumpDataDir`) to start a new directory from. Creating a
   * PGlite database runs initdb, which takes seconds; tests start from a dump of a migrated one.
   */
  pgliteTemplate?: Blob;
  /**
   * Where the database's own warnings go (an idle PostgreSQL connection the server closed): the
   * service's logger once it has one, so that its log holds pino's lines only. Without it, a line
   * of the same shape on stderr (the operator commands).
   */
  warn?: DatabaseWarn;
}

export type DatabaseWarn = (fields: Record<string, unknown>, message: string) => void;

/** Postgres `unique_violation`: the stores turn it into a 409 where a rule says "only once". */
export const UNIQUE_VIOLATION = '23505';
/** Postgres `serialization_failure` / `deadlock_detected`: the transaction can be retried. */
export const RETRYABLE_CODES = new Set(['40001', '40P01']);

export function sqlErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
