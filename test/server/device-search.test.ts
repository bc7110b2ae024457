import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable, SqlValue } from '../../server/db/database';
import { listDeviceRecords, type DeviceListQuery } from '../../server/store/devices';
import { backends, type TestEnv } from './harness';
import { listed } from './helpers/device-list';
import { serviceForTests } from './helpers/service-env';

/**
 * A device search that starts no serial number finds the term anywhere in name, serial number,
 * model or type, split per table so that each part can use its trigram index (migration 16). Every
 * search here is compared with a filter written out in JavaScript over the organization's devices,
 * page by page, and on PostgreSQL the plan is read to see the indexes used.
 */
const LOADED = 20_000;
const OTHER_ORG = 'search-other';

/**
 * The organization's devices: serial TRG000001…, type by turn, names and models mostly plain, with
 * rare ones holding the terms searched below, LIKE's wildcards and a backslash included, and
 * near-misses that a wildcard left unescaped would match. Another organization holds the same
 * names and models; manufactured devices no one registered hold the rare model too.
 */
const NAME_SQL = `CASE
    WHEN i % 1000 = 7 THEN 'Pump 50% room ' || i
    WHEN i % 1000 = 8 THEN 'Pump 50x room ' || i
    WHEN i % 1000 = 13 THEN 'Valve_A ' || i
    WHEN i % 1000 = 14 THEN 'ValveXA ' || i
    WHEN i % 1000 = 21 THEN 'back\\slash ' || i
    WHEN i % 1000 = 22 THEN 'backslash ' || i
    WHEN i % 997 = 0 THEN 'MiXeD CaSe ' || i
    WHEN i % 1000 = 500 THEN 'zetamodel fan ' || i
    ELSE 'Unit ' || i END`;
const MODEL_SQL = `CASE WHEN i % 1500 = 3 THEN 'ZetaModel-' || i ELSE 'M-' || (i % 13) END`;
const TYPE_SQL = `(ARRAY['SRCP','WESP','EPC','NSCP'])[1 + i % 4]`;

interface Device {
  serial: string;
  name: string;
  model: string;
  type: string;
  configured: boolean;
}

/** Every device of the organization in list order, read without any filter. */
async function everyDevice(env: TestEnv): Promise<Device[]> {
  const { rows } = await env.db.query<{
    serial_number: string;
    name: string;
    model: string;
    device_type: string;
    configured: boolean;
  }>(
    `SELECT d.serial_number, d.name, m.model, m.device_type,
       EXISTS (SELECT 1 FROM configuration_devices cd WHERE cd.serial_number = d.serial_number) AS configured
     FROM devices d JOIN manufacturing_records m ON m.serial_number = d.serial_number
     WHERE d.org_id = $1 ORDER BY d.serial_number`,
    [env.orgId],
  );
  return rows.map((row) => ({
    serial: row.serial_number,
    name: row.name,
    model: row.model,
    type: row.device_type,
    configured: row.configured,
  }));
}

/** The search as the interface promises it: the text anywhere in the four fields, case aside, no wildcards. */
function bruteForce(devices: Device[], term: string, configurableOnly = false): string[] {
  const needle = term.toLowerCase();
  return devices
    .filter((d) => [d.name, d.serial, d.model, d.type].some((field) => field.toLowerCase().includes(needle)))
    .filter((d) => !configurableOnly || !d.configured)
    .map((d) => d.serial);
}

/** Every page of a search, walked to one past its end, each page's totalCount checked. */
async function walk(env: TestEnv, term: string, limit: number, extra = ''): Promise<string[]> {
  const all: string[] = [];
  let total: number | undefined;
  for (let page = 1; page <= 100; page++) {
    const got = await listed(env, `search=${encodeURIComponent(term)}&limit=${limit}&page=${page}${extra}`);
    total ??= got.totalCount;
    expect({ term, page, totalCount: got.totalCount }).toEqual({ term, page, totalCount: total });
    all.push(...got.serials);
    if (got.serials.length === 0) break;
  }
  expect(all.length).toBe(total);
  return all;
}

/** A Queryable that hands the statements on and keeps them, to EXPLAIN the store's own SQL. */
function recording(db: Queryable): { db: Queryable; statements: { sql: string; params: readonly SqlValue[] }[] } {
  const statements: { sql: string; params: readonly SqlValue[] }[] = [];
  return {
    statements,
    db: {
      query: (sql, params = []) => {
        statements.push({ sql, params });
        return db.query(sql, params);
      },
    },
  };
}

describe.each(backends())('device search anywhere in the record on %s', (backend) => {
  const env = serviceForTests(backend);
  let devices: Device[];

  beforeAll(async () => {
    await env.createOrg(OTHER_ORG, 'EU');
    await env.db.query(
      `INSERT INTO manufacturing_records (serial_number, device_type, model)
       SELECT 'TRG' || lpad(i::text, 6, '0'), ${TYPE_SQL}, ${MODEL_SQL} FROM generate_series(1, $1::int) i
       UNION ALL
       SELECT 'OTH' || lpad(i::text, 6, '0'), ${TYPE_SQL}, ${MODEL_SQL} FROM generate_series(1, 5000) i
       UNION ALL
       SELECT 'FREE' || lpad(i::text, 6, '0'), ${TYPE_SQL}, 'ZetaModel-free-' || i FROM generate_series(1, 50) i`,
      [LOADED],
    );
    await env.db.query(
      `INSERT INTO devices (serial_number, org_id, name)
       SELECT 'TRG' || lpad(i::text, 6, '0'), $1, ${NAME_SQL} FROM generate_series(1, $2::int) i ORDER BY md5(i::text)`,
      [env.orgId, LOADED],
    );
    await env.db.query(
      `INSERT INTO devices (serial_number, org_id, name)
       SELECT 'OTH' || lpad(i::text, 6, '0'), $1, ${NAME_SQL} FROM generate_series(1, 5000) i`,
      [OTHER_ORG],
    );
    await env.db.query('ANALYZE devices, manufacturing_records');
    // Three devices with the rare terms in a configuration, for configurableOnly.
    const configuration = (await env.call('POST', '/configurations', { body: { name: 'search' } })).json.data
      .id as string;
    for (const serial of ['TRG001007', 'TRG003013', 'TRG004500']) {
      const added = await env.call('POST', `/configurations/${configuration}/devices`, {
        body: { serialNumber: serial },
      });
      expect(added.status, JSON.stringify(added.json)).toBeLessThan(300);
    }
    devices = await everyDevice(env);
  });

  const rareTerms = [
    'pump 50%', // a literal percent sign, not "Pump 50x"
    '%',
    'valve_a', // a literal underscore, not "ValveXA"
    '_',
    'back\\slash', // a backslash, not "backslash"
    'mixed case',
    'MIXED CASE',
    'zetamodel', // a model for most, a name for some
    'ZetaModel-1503',
    'G0019', // a serial number from inside
    'nit 1999',
    'qqq-nothing',
  ];

  it.each(rareTerms)('finds %j wherever it is, on every page, as a filter over every device does', async (term) => {
    // Starting no serial number, each term takes the search over every field.
    expect(devices.some((d) => d.serial.toLowerCase().startsWith(term.toLowerCase()))).toBe(false);
    const expected = bruteForce(devices, term);
    expect(await walk(env, term, 7)).toEqual(expected);
  });

  it('finds the terms wherever the rare ones were placed, so the comparisons above are not empty', () => {
    const sizes = Object.fromEntries(rareTerms.map((term) => [term, bruteForce(devices, term).length]));
    expect(sizes).toEqual({
      'pump 50%': 20,
      '%': 20,
      valve_a: 20,
      _: 20,
      'back\\slash': 20,
      'mixed case': 20,
      'MIXED CASE': 20,
      zetamodel: 34,
      'ZetaModel-1503': 1,
      G0019: 100,
      'nit 1999': 11,
      'qqq-nothing': 0,
    });
  });

  it('leaves out the devices in a configuration with configurableOnly', async () => {
    for (const term of ['pump 50%', 'valve_a', 'zetamodel']) {
      const expected = bruteForce(devices, term, true);
      expect(expected.length).toBe(bruteForce(devices, term).length - 1);
      expect(await walk(env, term, 7, '&configurableOnly=true')).toEqual(expected);
    }
  });

  it('pages a type that a quarter of the devices hold: first, middle, last and past the end', async () => {
    const expected = bruteForce(devices, 'wes');
    expect(expected.length).toBe(LOADED / 4);
    const limit = 30;
    const last = Math.ceil(expected.length / limit);
    for (const page of [1, 2, Math.floor(last / 2), last, last + 1]) {
      expect({ page, ...(await listed(env, `search=wes&limit=${limit}&page=${page}`)) }).toEqual({
        page,
        serials: expected.slice((page - 1) * limit, page * limit),
        totalCount: expected.length,
      });
    }
  });

  it('reads the trigram index of each of the four columns for a rare term, not every device', async () => {
    const query: DeviceListQuery = {
      search: 'zetamodel',
      serial: undefined,
      configurableOnly: false,
      limit: 7,
      page: 2,
    };
    const recorded = recording(env.db);
    await listDeviceRecords(recorded.db, env.orgId, query);
    // The prefix search's look (the term starts no serial number), then the filter's page and its
    // count (page 2 of a search is counted).
    const filter = recorded.statements.filter(({ sql }) => sql.includes('ILIKE'));
    expect(filter.length).toBe(2);
    for (const { sql, params } of filter) {
      const { rows } = await env.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      for (const index of [
        'devices_name_trgm',
        'devices_serial_trgm',
        'manufacturing_records_model_trgm',
        'manufacturing_records_type_trgm',
      ])
        expect(plan).toContain(`Bitmap Index Scan on ${index}`);
      expect(plan).not.toMatch(/Seq Scan on (devices|manufacturing_records)\b/);
    }
  });

  it('keeps the trigram indexes out of every other device list query (they also answer "=")', async () => {
    const recorded = recording(env.db);
    const list = (query: Partial<DeviceListQuery>) =>
      listDeviceRecords(recorded.db, env.orgId, {
        search: undefined,
        serial: undefined,
        configurableOnly: false,
        limit: 30,
        page: 2,
        ...query,
      });
    await list({ search: 'TRG0012' });
    await list({ serial: 'TRG001234', page: 1 });
    await list({});
    await list({ configurableOnly: true });
    expect(recorded.statements.length).toBeGreaterThanOrEqual(4);
    for (const { sql, params } of recorded.statements) {
      const { rows } = await env.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).not.toContain('_trgm');
    }
  });
});
