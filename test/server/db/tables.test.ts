import { describe, expect, it } from 'vitest';
import { changeOf, ChangeFeed } from '../../../server/db/change-feed';
import { ALL_TABLES, isReadStatement, overlaps, TABLES, tablesNamedIn } from '../../../server/db/tables';

/** Which tables a statement touches, and what a change notification says: what scopes the caches' drops. */
describe('tables named by a statement', () => {
  it('knows every table the migrations create', () => {
    expect(TABLES).toEqual(
      expect.arrayContaining([
        'configurations',
        'configuration_devices',
        'devices',
        'api_keys',
        'confirmations',
        'confirmation_requests',
        'sync_ids',
      ]),
    );
  });

  it('finds the tables in every clause, joins and subqueries included', () => {
    const sql = `INSERT INTO confirmation_requests (org_id, idempotency_key, confirmation_id)
      SELECT $1, $2, id FROM confirmations WHERE serial_number = $3`;
    expect(tablesNamedIn(sql)).toEqual(new Set(['confirmation_requests', 'confirmations']));
    expect(tablesNamedIn('SELECT d.x FROM Devices d LEFT JOIN configuration_devices cd ON true')).toEqual(
      new Set(['devices', 'configuration_devices']),
    );
    expect(tablesNamedIn('UPDATE devices SET firmware_version = $1')).toEqual(new Set(['devices']));
  });

  it('takes a statement that names no known table for one that may touch them all', () => {
    expect(tablesNamedIn("SELECT nextval('config_file_sequence')")).toBe(ALL_TABLES);
    expect(tablesNamedIn('-- schema change')).toBe(ALL_TABLES);
    expect(overlaps(new Set(['configurations']), ALL_TABLES)).toBe(true);
    expect(overlaps(ALL_TABLES, new Set(['devices']))).toBe(true);
    expect(overlaps(new Set(['configurations']), new Set(['devices']))).toBe(false);
  });
});

describe('change notifications', () => {
  it('carry the tables a commit wrote, and whether API keys changed', () => {
    const feed = new ChangeFeed('postgres://unused');
    expect(changeOf(feed.nextToken(false, new Set(['devices', 'confirmations'])))).toEqual({
      keys: false,
      tables: new Set(['devices', 'confirmations']),
    });
    expect(changeOf(feed.nextToken(true, new Set(['api_keys'])))).toEqual({
      keys: true,
      tables: new Set(['api_keys']),
    });
    expect(changeOf(feed.nextToken(false, ALL_TABLES))).toEqual({ keys: false, tables: ALL_TABLES });
  });

  it('take anything else (an operator NOTIFY, an older build, a garbled payload) for a change of everything, keys included', () => {
    expect(changeOf('')).toEqual({ keys: true, tables: ALL_TABLES });
    expect(changeOf('origin:1:data')).toEqual({ keys: false, tables: ALL_TABLES });
    expect(changeOf('origin:1:keys')).toEqual({ keys: true, tables: ALL_TABLES });
    expect(changeOf('origin:1:data:devices,no_such_table')).toEqual({ keys: true, tables: ALL_TABLES });
  });
});

describe('a statement that only reads', () => {
  it('is a SELECT, or a WITH of queries only: the device list pages and searches are reads', () => {
    expect(isReadStatement('  select 1')).toBe(true);
    expect(
      isReadStatement(
        'WITH page AS (SELECT p.serial_number FROM devices p ORDER BY p.serial_number LIMIT $5 OFFSET $6) SELECT d.updated_at FROM devices d',
      ),
    ).toBe(true);
  });

  it('is not a WITH with a part that changes rows, nor any other statement', () => {
    expect(
      isReadStatement('WITH gone AS (DELETE FROM devices WHERE org_id = $1 RETURNING *) SELECT count(*) FROM gone'),
    ).toBe(false);
    expect(isReadStatement('with moved as (update devices set name = $2 returning 1) select 1')).toBe(false);
    expect(isReadStatement('WITH x AS (INSERT INTO confirmations VALUES ($1) RETURNING id) SELECT id FROM x')).toBe(
      false,
    );
    expect(isReadStatement('UPDATE devices SET name = $1')).toBe(false);
    expect(isReadStatement('SELECT pg_notify($1, $2)')).toBe(true);
    expect(isReadStatement('CREATE INDEX x ON devices (name)')).toBe(false);
  });
});
