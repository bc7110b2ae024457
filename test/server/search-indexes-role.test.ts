import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database';
import { openDatabase } from '../../server/db/open';
import { listDeviceRecords } from '../../server/store/devices';
import { runInProcess } from './cli-run';

/**
 * Migration 16 creates pg_trgm and the device search's trigram indexes where the service's role
 * may. A role without CREATE on its database may not: the service must still start (and search,
 * slowly), say in its log what the owner runs, and create the indexes on the first start after the
 * owner did. Run against the test cluster of scripts/ci-postgres.sh, in a database and a role of
 * this test's own.
 */
const base = process.env.TEST_DATABASE_URL;
const TRGM_INDEXES = [
  'devices_name_trgm',
  'devices_serial_trgm',
  'manufacturing_records_model_trgm',
  'manufacturing_records_type_trgm',
];

async function asSuperuser(database: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const url = new URL(base!);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

interface Warning {
  fields: Record<string, unknown>;
  message: string;
}

describe.skipIf(!base)('the device search indexes under a role that may not create extensions', () => {
  const suffix = randomBytes(5).toString('hex');
  const database = `trgm_${suffix}`;
  const role = `trgm_role_${suffix}`;
  let roleUrl: string;

  beforeAll(async () => {
    const adminDb = new URL(base!).pathname.slice(1);
    await asSuperuser(adminDb, async (client) => {
      await client.query(`CREATE DATABASE ${database}`);
      await client.query(`CREATE ROLE ${role} LOGIN`);
    });
    // Tables in the public schema, nothing on the database itself: not its owner, no CREATE on it.
    await asSuperuser(database, async (client) => {
      await client.query(`GRANT USAGE, CREATE ON SCHEMA public TO ${role}`);
    });
    const url = new URL(base!);
    url.username = role;
    url.password = '';
    url.pathname = `/${database}`;
    roleUrl = url.toString();
  });

  afterAll(async () => {
    const adminDb = new URL(base!).pathname.slice(1);
    await asSuperuser(adminDb, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.query(`DROP ROLE IF EXISTS ${role}`);
    });
  });

  async function open(): Promise<{ db: Database; warnings: Warning[] }> {
    const warnings: Warning[] = [];
    const db = await openDatabase({
      databaseUrl: roleUrl,
      warn: (fields, message) => warnings.push({ fields, message }),
    });
    return { db, warnings };
  }

  async function indexesAndExtension(db: Database): Promise<{ indexes: string[]; extension: boolean }> {
    const indexes = await db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE indexname LIKE '%\\_trgm' ORDER BY indexname`,
    );
    const extension = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'");
    return { indexes: indexes.rows.map((row) => row.indexname), extension: extension.rows.length === 1 };
  }

  it('migrates as that role (the operator command), and says what the owner runs', async () => {
    const run = await runInProcess(['--database-url', roleUrl, 'migrate']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^applied migrations 1, 2, .*\b16\b/);
    expect(run.err).toMatch(/^warning: device search by name, model or type reads every device/);
    expect(run.err).toContain('run `CREATE EXTENSION pg_trgm;` in this database');
    expect(run.err).toMatch(/\(permission denied to create extension "pg_trgm"\)\n$/);
  });

  it('starts without the indexes, says what the owner runs, and searches all the same', async () => {
    const { db, warnings } = await open();
    try {
      const migrated = await db.query<{ version: number }>('SELECT version FROM schema_migrations WHERE version = 16');
      expect(migrated.rows.length).toBe(1);
      expect(await indexesAndExtension(db)).toEqual({ indexes: [], extension: false });
      expect(warnings).toEqual([
        {
          fields: { reason: expect.stringMatching(/permission denied to create extension "pg_trgm"/) },
          message: expect.stringContaining('run `CREATE EXTENSION pg_trgm;` in this database'),
        },
      ]);

      await db.query("INSERT INTO organizations (id, name, region) VALUES ('role-org', 'Role org', 'EU')");
      await db.query(
        `INSERT INTO manufacturing_records (serial_number, device_type, model)
         SELECT 'RL' || lpad(i::text, 4, '0'), 'EPC', CASE WHEN i % 10 = 3 THEN 'Zeta ' || i ELSE 'M' END FROM generate_series(1, 40) i`,
      );
      await db.query(
        `INSERT INTO devices (serial_number, org_id, name)
         SELECT 'RL' || lpad(i::text, 4, '0'), 'role-org', CASE WHEN i % 10 = 5 THEN 'zeta pump ' || i ELSE 'Unit ' || i END FROM generate_series(1, 40) i`,
      );
      const found = await listDeviceRecords(db, 'role-org', {
        search: 'ZETA',
        serial: undefined,
        configurableOnly: false,
        limit: 30,
        page: 1,
      });
      expect({ serials: found.items.map((d) => d.serialNumber), totalCount: found.totalCount }).toEqual({
        serials: ['RL0003', 'RL0005', 'RL0013', 'RL0015', 'RL0023', 'RL0025', 'RL0033', 'RL0035'],
        totalCount: 8,
      });
    } finally {
      await db.close();
    }
  });

  it('creates the indexes on the first start after the owner created the extension, and then is quiet', async () => {
    await asSuperuser(database, async (client) => {
      // The line docs/operations.md gives the owner, as written there.
      await client.query('CREATE EXTENSION pg_trgm;');
    });
    const first = await open();
    try {
      expect(first.warnings).toEqual([]);
      expect(await indexesAndExtension(first.db)).toEqual({ indexes: [...TRGM_INDEXES].sort(), extension: true });
    } finally {
      await first.db.close();
    }
    const again = await open();
    try {
      expect(again.warnings).toEqual([]);
      expect((await indexesAndExtension(again.db)).indexes.length).toBe(4);
    } finally {
      await again.db.close();
    }
  });
});
