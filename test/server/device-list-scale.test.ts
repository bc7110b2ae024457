import { beforeAll, describe, expect, it } from 'vitest';
import { backends, codes, type TestEnv } from './harness';
import { listed } from './helpers/device-list';
import { serviceForTests } from './helpers/service-env';

/**
 * The device list pages from counted buckets (migration 13) instead of OFFSET over the whole
 * organization, and a search that starts a serial number reads an index range. Every page here is
 * compared with what a plain ORDER BY over the devices table says it must hold, after bulk loads,
 * registrations, releases and configuration changes through the API.
 */
const LOADED = 3000;
const serialOf = (i: number) => `SCALE${String(i).padStart(5, '0')}`;

/** The organization's devices in list order, read without the buckets. */
async function truth(env: TestEnv, configurableOnly = false): Promise<string[]> {
  const { rows } = await env.db.query<{ serial_number: string }>(
    `SELECT d.serial_number FROM devices d WHERE d.org_id = $1
       AND (NOT $2::boolean OR NOT EXISTS (SELECT 1 FROM configuration_devices cd WHERE cd.serial_number = d.serial_number))
     ORDER BY d.serial_number`,
    [env.orgId, configurableOnly],
  );
  return rows.map((row) => row.serial_number);
}

/** Pages spread over the list: the first, both sides of bucket edges (512 devices), deep, last, and past the end. */
async function expectPagesMatch(env: TestEnv, configurableOnly: boolean): Promise<void> {
  const expected = await truth(env, configurableOnly);
  const limit = 30;
  const last = Math.ceil(expected.length / limit);
  for (const page of [1, 2, 17, 18, 35, 52, Math.floor(last / 2), last - 1, last, last + 1]) {
    const got = await listed(env, `limit=${limit}&page=${page}${configurableOnly ? '&configurableOnly=true' : ''}`);
    expect({ page, ...got }).toEqual({
      page,
      serials: expected.slice((page - 1) * limit, page * limit),
      totalCount: expected.length,
    });
  }
  // Limits that do not divide a bucket: every row of a stretch across a bucket edge, in order.
  const stretch: string[] = [];
  for (let page = 20; page <= 24; page++)
    stretch.push(
      ...(await listed(env, `limit=7&page=${page}${configurableOnly ? '&configurableOnly=true' : ''}`)).serials,
    );
  expect(stretch).toEqual(expected.slice(19 * 7, 24 * 7));
}

async function bucketsHold(env: TestEnv): Promise<{ devices: number; largest: number; buckets: number }> {
  const { rows } = await env.db.query<{ devices: string; largest: number; buckets: number }>(
    'SELECT sum(devices) AS devices, max(devices) AS largest, count(*)::int AS buckets FROM device_list_buckets WHERE org_id = $1',
    [env.orgId],
  );
  return { devices: Number(rows[0]!.devices), largest: rows[0]!.largest, buckets: rows[0]!.buckets };
}

describe.each(backends())('the device list at scale on %s', (backend) => {
  const env = serviceForTests(backend);

  beforeAll(async () => {
    // A bulk load in one statement, as an import or a migration would do it, in shuffled order.
    await env.db.query(
      `INSERT INTO manufacturing_records (serial_number, device_type, model)
       SELECT 'SCALE' || lpad(i::text, 5, '0'), (ARRAY['SRCP','WESP','EPC','NSCP'])[1 + i % 4], 'M-' || (i % 7) FROM generate_series(1, $1::int) i`,
      [LOADED + 20],
    );
    await env.db.query(
      `INSERT INTO devices (serial_number, org_id, name)
       SELECT 'SCALE' || lpad(i::text, 5, '0'), $1, 'Unit ' || i FROM generate_series(1, $2::int) i ORDER BY md5(i::text)`,
      [env.orgId, LOADED],
    );
  });

  it('pages deep in the list hold what an ORDER BY over every device holds, and the count is right', async () => {
    const held = await bucketsHold(env);
    expect(held.devices).toBe((await truth(env)).length);
    expect(held.largest).toBeLessThanOrEqual(1024);
    expect(held.buckets).toBeGreaterThanOrEqual(3);
    await expectPagesMatch(env, false);
  });

  it('keeps pages and counts right as devices are registered and released through the API', async () => {
    for (const i of [LOADED + 1, LOADED + 2, LOADED + 3]) {
      expect((await env.call('POST', `/devices?serialNumber=${serialOf(i)}&name=late`)).status).toBe(201);
    }
    // Releases at the start, inside the first bucket and deep in the list.
    for (const i of [1, 2, 600, 1500, 2999]) {
      expect((await env.call('DELETE', `/devices/${serialOf(i)}`)).status).toBe(200);
    }
    expect((await bucketsHold(env)).devices).toBe((await truth(env)).length);
    await expectPagesMatch(env, false);
  });

  it('counts and pages the devices in no configuration, also after a configuration is deleted', async () => {
    const configuration = (await env.call('POST', '/configurations', { body: { name: 'scale' } })).json.data
      .id as string;
    for (const i of [3, 4, 700, 701, 1200, 2500, 2998]) {
      const added = await env.call('POST', `/configurations/${configuration}/devices`, {
        body: { serialNumber: serialOf(i) },
      });
      expect(added.status, JSON.stringify(added.json)).toBeLessThan(300);
    }
    const configurable = await truth(env, true);
    expect(configurable.length).toBe((await truth(env)).length - 7);
    await expectPagesMatch(env, true);
    // A device in a configuration is not released: the counts stay as they were.
    expect(codes(await env.call('DELETE', `/devices/${serialOf(700)}`))).toEqual(['DEVICE_IN_CONFIGURATION']);
    expect((await listed(env, 'configurableOnly=true&limit=1')).totalCount).toBe(configurable.length);
    // Deleting the configuration frees its devices (a cascade in the database).
    expect((await env.call('DELETE', `/configurations/${configuration}`)).status).toBeLessThan(300);
    expect((await listed(env, 'configurableOnly=true&limit=1')).totalCount).toBe((await truth(env)).length);
  });

  it('searches by serial-number prefix, any case, through the index range, paged and counted', async () => {
    const { rows } = await env.db.query<{ serial_number: string }>(
      `SELECT serial_number FROM devices WHERE org_id = $1 AND upper(serial_number) LIKE 'SCALE012%' ORDER BY upper(serial_number) COLLATE "C"`,
      [env.orgId],
    );
    const expected = rows.map((row) => row.serial_number);
    expect(expected.length).toBe(100);
    for (const page of [1, 2, 4, 5]) {
      expect(await listed(env, `search=scale012&limit=30&page=${page}`)).toEqual({
        serials: expected.slice((page - 1) * 30, page * 30),
        totalCount: 100,
      });
    }
    expect(await listed(env, 'search=SCALE00003')).toEqual({ serials: [serialOf(3)], totalCount: 1 });
    const unconfigured = await listed(env, 'search=SCALE0000&configurableOnly=true&limit=30');
    expect(unconfigured.totalCount).toBe(unconfigured.serials.length);
    expect(unconfigured.serials).toEqual((await truth(env, true)).filter((serial) => serial.startsWith('SCALE0000')));
  });

  it('searches names, models and types anywhere when the term starts no serial number', async () => {
    const { rows } = await env.db.query<{ serial_number: string }>(
      "SELECT serial_number FROM devices WHERE org_id = $1 AND name ILIKE '%nit 29%' ORDER BY serial_number",
      [env.orgId],
    );
    const expected = rows.map((row) => row.serial_number);
    expect(expected.length).toBeGreaterThan(30);
    expect(await listed(env, `search=${encodeURIComponent('nit 29')}&limit=30&page=2`)).toEqual({
      serials: expected.slice(30, 60),
      totalCount: expected.length,
    });
    // "late" starts no serial number: the three registered above by that name.
    expect((await listed(env, 'search=late')).serials).toEqual([
      serialOf(LOADED + 1),
      serialOf(LOADED + 2),
      serialOf(LOADED + 3),
    ]);
  });

  it('refuses to move a device to another organization or serial number behind the buckets', async () => {
    await expect(
      env.db.query("UPDATE devices SET serial_number = 'SCALE99999' WHERE serial_number = $1", [serialOf(10)]),
    ).rejects.toThrow(/release it and register it again/);
    expect((await bucketsHold(env)).devices).toBe((await truth(env)).length);
  });
});
