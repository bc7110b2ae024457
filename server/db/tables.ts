import { AsyncLocalStorage } from 'node:async_hooks';
import { MIGRATIONS } from './migrations';
import { countStatement } from './statement-count';

/**
 * Which tables a statement may touch, so that a commit drops only the cached answers read from
 * the tables it wrote (server/cache/read-cache.ts): a confirmation (devices, confirmations) then
 * leaves the configurations' answers in memory.
 *
 * A statement "names" a table when the table's name appears in it as a word, whatever the clause:
 * FROM, JOIN, a subquery, INSERT INTO, UPDATE, DELETE FROM. That errs one way only: a column or a
 * string that happens to be spelt like a table adds that table, which costs a needless drop, never
 * a stale answer. The schema has no views, and its functions are triggers only (migrations 13 and
 * 15: the device list's buckets, the organizations' configuration counts), which a write to
 * devices, configuration_devices or configurations fires; every query that reads those kept tables
 * also names the table they follow, so the write that changes them drops its answers too. A
 * statement that names no table this build knows counts as touching all of them.
 */

/** Every table the migrations of this build create. */
export const TABLES: readonly string[] = [
  ...new Set(
    MIGRATIONS.flatMap((m) =>
      [...m.sql.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)/gi)].map((match) =>
        match[1]!.toLowerCase(),
      ),
    ),
  ),
];

/** The tables named, or ALL_TABLES when the statement names none that this build knows. */
export type TableSet = ReadonlySet<string> | typeof ALL_TABLES;
export const ALL_TABLES = 'all';

const NAMED = new RegExp(`\\b(${TABLES.join('|')})\\b`, 'gi');

/** The statements of this build are a few hundred templates: their answers are kept (bounded, for dynamic SQL). */
const named = new Map<string, TableSet>();
const MAX_REMEMBERED = 2_000;

export function tablesNamedIn(sql: string): TableSet {
  const known = named.get(sql);
  if (known) return known;
  const found = new Set([...sql.matchAll(NAMED)].map((match) => match[1]!.toLowerCase()));
  const tables: TableSet = found.size === 0 ? ALL_TABLES : found;
  if (named.size >= MAX_REMEMBERED) named.clear();
  named.set(sql, tables);
  return tables;
}

/** Adds `more` to `into`; returns ALL_TABLES when either is. */
export function joinTables(into: Set<string> | typeof ALL_TABLES, more: TableSet): Set<string> | typeof ALL_TABLES {
  if (into === ALL_TABLES || more === ALL_TABLES) return ALL_TABLES;
  for (const table of more) into.add(table);
  return into;
}

/** Whether a change to `written` may alter what was read from `read`. */
export function overlaps(read: TableSet, written: TableSet): boolean {
  if (read === ALL_TABLES || written === ALL_TABLES) return true;
  for (const table of read) if (written.has(table)) return true;
  return false;
}

/** What the statements run inside `recordingReads` named, gathered as they run. */
export class ReadTables {
  tables: Set<string> | typeof ALL_TABLES = new Set();

  add(more: TableSet): void {
    this.tables = joinTables(this.tables, more);
  }
}

const current = new AsyncLocalStorage<ReadTables>();

/**
 * Runs `work` and gathers the tables that every statement it runs names (through either
 * database's `query`, which calls `noteStatement`), nested runs included.
 */
export async function recordingReads<T>(
  work: () => Promise<T>,
): Promise<{ value: T; tables: Set<string> | typeof ALL_TABLES }> {
  const reads = new ReadTables();
  const value = await current.run(reads, work);
  // A run nested in another (a cached read inside a cached read): the outer one read these too.
  current.getStore()?.add(reads.tables);
  return { value, tables: reads.tables };
}

/**
 * Whether a statement only reads: a SELECT, or a WITH whose parts are all queries. A data-modifying
 * part (`WITH x AS (UPDATE …)`) makes it a write; so does `FOR UPDATE`, which costs a needless
 * announcement at worst. Without the WITH case every keyset page and search of the device list
 * was announced as a write of all its tables, and each instance dropped its cached answers
 * (configurations included) on every device list read.
 */
export function isReadStatement(sql: string): boolean {
  if (/^\s*SELECT\b/i.test(sql)) return true;
  return /^\s*WITH\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE)\b/i.test(sql);
}

/** Called by the database layer for every statement it runs. */
export function noteStatement(sql: string): void {
  countStatement();
  current.getStore()?.add(tablesNamedIn(sql));
}

/** For a cache answering from memory inside a recorded run: what it answers was read from `tables`. */
export function noteTablesRead(tables: TableSet): void {
  current.getStore()?.add(tables);
}
