import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeConfigFile } from '../../domain/files';
import { issueKey, seedDemo, type RunningService } from '../../server';
import { migrate } from '../../server/db/migrate';
import { MIGRATIONS } from '../../server/db/migrations';
import { openPostgres } from '../../server/db/postgres';
import { srcpToEpcOverIsm } from '../fixtures/typical-flows';
import {
  call,
  POSTGRES_URL,
  scratchDatabase,
  startInstances,
  type Answer,
  type ScratchDatabase,
} from './postgres-cluster';

/**
 * Two stateless instances on one PostgreSQL database, as behind a load balancer: what one changes
 * the other sees on its very next request, and requests racing through both lose nothing.
 */
const reason = 'needs a PostgreSQL server: set TEST_DATABASE_URL (.ci/run starts one)';

describe.skipIf(!POSTGRES_URL)(`migrations on PostgreSQL (${reason})`, () => {
  it('run once however many runners start together', async () => {
    const database = await scratchDatabase();
    const runners = await Promise.all(Array.from({ length: 4 }, () => openPostgres(database.url)));
    try {
      const applied = await Promise.all(runners.map((db) => migrate(db)));
      const versions = MIGRATIONS.map((m) => m.version);
      // One runner applied everything while the others waited, then found nothing left to do.
      expect(applied.filter((list) => list.length > 0)).toEqual([versions]);
      const { rows } = await runners[0]!.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(rows.map((row) => row.version)).toEqual(versions);
    } finally {
      await Promise.all(runners.map((db) => db.close()));
      await database.drop();
    }
  });
});

describe.skipIf(!POSTGRES_URL)(`two instances on one PostgreSQL database (${reason})`, () => {
  let database: ScratchDatabase;
  let a: RunningService;
  let b: RunningService;
  let adminKey: string;
  /** Alternates requests between the instances, as a round-robin load balancer does. */
  const spread = (i: number) => (i % 2 === 0 ? a : b).url;
  const admin = (base: string, method: string, path: string, options?: Parameters<typeof call>[4]) =>
    call(base, adminKey, method, path, options);

  beforeAll(async () => {
    database = await scratchDatabase();
    [a, b] = (await startInstances(database.url, 2)) as [RunningService, RunningService];
    ({ adminKey } = await seedDemo(a.db));
    for (const serial of [
      'SRCP000101',
      'EPC000101',
      'EPC000102',
      'EPC000103',
      'EPC000104',
      'NSCP000101',
      'NSCP000102',
      'NSCP000103',
      'NSCP000104',
      'WESP000101',
      'WESP000102',
    ]) {
      expect((await admin(a.url, 'POST', `devices?serialNumber=${serial}&name=${serial}`)).status).toBe(201);
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('judges a key by the role given through the other instance on the very next request, and refuses it once revoked', async () => {
    const key = await issueKey(a.db, { orgId: 'demo', name: 'line-7', role: 'ConfigManager' });
    for (let i = 0; i < 3; i++) expect((await call(b.url, key, 'GET', 'configurations')).status).toBe(200);
    expect((await admin(a.url, 'PUT', 'apiKeys/line-7/role', { body: 'Service' })).status).toBe(200);
    const forbidden = await call(b.url, key, 'GET', 'configurations');
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.errors[0].code).toBe('ROLE_FORBIDDEN');

    expect((await admin(a.url, 'PUT', 'apiKeys/line-7/role', { body: 'Operator' })).status).toBe(200);
    expect((await call(b.url, key, 'GET', 'configurations')).status).toBe(200);
    // Revoked by an operator in the database: both instances refuse it at once.
    await a.db.query("DELETE FROM api_keys WHERE name = 'line-7'");
    for (const instance of [b, a]) expect((await call(instance.url, key, 'GET', 'configurations')).status).toBe(401);
  });

  it('reads a configuration edited through the other instance on the very next request, though it had it cached', async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: { name: 'Before' } })).json.data.id as string;
    for (let round = 0; round < 3; round++) {
      expect((await admin(b.url, 'GET', `configurations/${id}`)).json.data.name).toBe(
        round === 0 ? 'Before' : `Round ${round - 1}`,
      );
      // B keeps what it read: without the snapshot check it would answer this next time.
      expect(b.ctx.reads!.size).toBeGreaterThan(0);
      expect((await admin(a.url, 'PATCH', `configurations/${id}`, { body: { name: `Round ${round}` } })).status).toBe(
        200,
      );
      expect((await admin(b.url, 'GET', `configurations/${id}`)).json.data.name).toBe(`Round ${round}`);
      const listed = await admin(b.url, 'GET', 'configurations');
      expect(listed.json.data.items.find((c: { id: string }) => c.id === id).name).toBe(`Round ${round}`);
    }
  });

  it("shows a device's firmware confirmed through the other instance on the very next request, and keeps the configurations' answers meanwhile", async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: { name: 'Kept across confirmations' } })).json.data
      .id as string;
    const firmwareOf = async () =>
      (await admin(b.url, 'GET', 'devices?serial=NSCP000104')).json.data.items[0].firmwareVersion as string | null;
    await admin(b.url, 'GET', `configurations/${id}`);
    await firmwareOf();
    for (const version of ['1.1.0', '1.2.0']) {
      const confirmed = await admin(a.url, 'POST', 'devices/NSCP000104/confirm-apply-firmware', {
        body: {
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: version,
          applyTimeStamp: new Date().toISOString(),
        },
      });
      expect(confirmed.status).toBe(200);
      expect(await firmwareOf()).toBe(version);
      // The confirmation wrote devices and confirmations: B answers the configuration from memory.
      const hits = b.ctx.reads!.stats.hits;
      expect((await admin(b.url, 'GET', `configurations/${id}`)).json.data.name).toBe('Kept across confirmations');
      expect(b.ctx.reads!.stats.hits).toBe(hits + 1);
    }
  });

  it("judges a configuration's status from devices added and removed through the other instance on the very next request, though it had the verdict cached", async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: srcpToEpcOverIsm.configuration })).json.data
      .id as string;
    const statusOnB = async () =>
      (await admin(b.url, 'GET', `configurations/validate/${id}`)).json.data as {
        complete: boolean;
        readyDevices: string[];
      };
    expect(await statusOnB()).toMatchObject({ complete: false, readyDevices: [] });
    const hits = b.ctx.reads!.stats.hits;
    expect((await statusOnB()).complete).toBe(false);
    expect(b.ctx.reads!.stats.hits).toBeGreaterThan(hits);
    const serials = srcpToEpcOverIsm.devices.map((device) => device.payload.serialNumber);
    for (const device of srcpToEpcOverIsm.devices)
      expect((await admin(a.url, 'POST', `configurations/${id}/devices`, { body: device.payload })).status).toBe(201);
    const complete = await statusOnB();
    expect([complete.complete, [...complete.readyDevices].sort()]).toEqual([true, [...serials].sort()]);
    // The devices go back where the file tests below expect them: in no configuration.
    for (const serial of serials)
      expect((await admin(a.url, 'DELETE', `configurations/${id}/devices/${serial}`)).status).toBe(200);
    expect(await statusOnB()).toMatchObject({ complete: false, readyDevices: [] });
  });

  it('loses no device of many added to one configuration at once through both instances', async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: { name: 'Many at once' } })).json.data
      .id as string;
    // Devices of this test only: the others use EPC000104 (rivals), SRCP000101 and EPC000101 (files).
    const serials = [
      'EPC000102',
      'EPC000103',
      'NSCP000101',
      'NSCP000102',
      'NSCP000103',
      'NSCP000104',
      'WESP000101',
      'WESP000102',
    ];
    const answers = await Promise.all(
      serials.map((serialNumber, i) =>
        admin(spread(i), 'POST', `configurations/${id}/devices`, { body: { serialNumber } }),
      ),
    );
    expectAppliedOrRefused(answers, 201);
    const added = serials.filter((_, i) => answers[i]!.status === 201);
    expect(added.length).toBeGreaterThan(0);
    // The record a read returns is rebuilt in each add's transaction: none of them may be missing.
    for (const instance of [a, b]) {
      const record = (await admin(instance.url, 'GET', `configurations/${id}`)).json.data;
      expect(record.devices.map((d: { serialNumber: string }) => d.serialNumber).sort()).toEqual([...added].sort());
    }
    const { rows } = await a.db.query<{ serial_number: string }>(
      'SELECT serial_number FROM configuration_devices WHERE configuration_id = $1',
      [id],
    );
    expect(rows.map((row) => row.serial_number).sort()).toEqual([...added].sort());
  });

  it('applies concurrent updates of one configuration each whole, or refuses them', async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: { name: 'Contested' } })).json.data.id as string;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        admin(spread(i), 'PATCH', `configurations/${id}`, { body: { name: `Edit ${i + 1}`, ismTxChannel: i + 1 } }),
      ),
    );
    expectAppliedOrRefused(answers, 200);
    const record = (await admin(b.url, 'GET', `configurations/${id}`)).json.data;
    // Whichever committed last, its name and its channel came together.
    expect(record.name).toBe(`Edit ${record.ismTxChannel}`);
    expect(answers[record.ismTxChannel - 1]!.status).toBe(200);
  });

  it('puts a device in one configuration only, however the adds race through both instances', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push((await admin(a.url, 'POST', 'configurations', { body: { name: `Rival ${i}` } })).json.data.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admin(spread(i), 'POST', `configurations/${ids[i % 2]}/devices`, { body: { serialNumber: 'EPC000104' } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(409);
      expect(['DEVICE_IN_OTHER_CONFIGURATION', 'DEVICE_ALREADY_IN_CONFIGURATION', 'CONCURRENT_CHANGE']).toContain(
        answer.json.errors[0].code,
      );
    }
    const { rows } = await a.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM configuration_devices WHERE serial_number = 'EPC000104'",
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('never issues a file sequence twice, and one syncId for one content, to downloads racing through both instances', async () => {
    const id = (await admin(a.url, 'POST', 'configurations', { body: srcpToEpcOverIsm.configuration })).json.data
      .id as string;
    for (const device of srcpToEpcOverIsm.devices)
      expect((await admin(a.url, 'POST', `configurations/${id}/devices`, { body: device.payload })).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => admin(spread(i), 'GET', 'devices/SRCP000101/configuration-file')),
    );
    expectAppliedOrRefused(answers, 200);
    const files = answers.filter((answer) => answer.status === 200).map((answer) => decodeConfigFile(answer.bytes));
    expect(files.length).toBeGreaterThan(1);
    const sequences = files.map((file) => file.sequence);
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(new Set(files.map((file) => file.syncId)).size).toBe(1);
  });

  it('records a confirmation sent with one Idempotency-Key through both instances at once exactly once', async () => {
    const confirmation = {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.1.0',
      applyTimeStamp: new Date().toISOString(),
    };
    const headers = { 'Idempotency-Key': 'outbox-entry-0001' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admin(spread(i), 'POST', 'devices/NSCP000101/confirm-apply-firmware', { body: confirmation, headers }),
      ),
    );
    for (const answer of answers) expect([answer.status, answer.json.data]).toEqual([200, true]);
    const stored = await a.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM confirmations WHERE serial_number = 'NSCP000101'",
    );
    expect(stored.rows[0]!.n).toBe(1);
    const keys = await a.db.query<{ idempotency_key: string }>('SELECT idempotency_key FROM confirmation_requests');
    expect(keys.rows.map((row) => row.idempotency_key)).toEqual(['outbox-entry-0001']);

    // The same key with another confirmation is the client's mistake; a new key for the same payload is a replay.
    const other = await admin(b.url, 'POST', 'devices/NSCP000101/confirm-apply-firmware', {
      body: { ...confirmation, firmwareVersion: '1.0.0' },
      headers,
    });
    expect([other.status, other.json.errors[0].code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const replay = await admin(b.url, 'POST', 'devices/NSCP000101/confirm-apply-firmware', {
      body: confirmation,
      headers: { 'Idempotency-Key': 'outbox-entry-0002' },
    });
    expect([replay.status, replay.json.data]).toEqual([200, true]);
    expect(
      (
        await a.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM confirmations WHERE serial_number = 'NSCP000101'",
        )
      ).rows[0]!.n,
    ).toBe(1);
    const malformed = await admin(a.url, 'POST', 'devices/NSCP000101/confirm-apply-firmware', {
      body: confirmation,
      headers: { 'Idempotency-Key': 'has spaces' },
    });
    expect([malformed.status, malformed.json.errors[0].code]).toEqual([400, 'IDEMPOTENCY_KEY_INVALID']);
  });
});

/** Every answer either applied (`ok`) or was refused with 409 CONCURRENT_CHANGE: nothing failed otherwise. */
function expectAppliedOrRefused(answers: Answer[], ok: number): void {
  for (const answer of answers) {
    if (answer.status === ok) continue;
    expect(answer.status, JSON.stringify(answer.json)).toBe(409);
    expect(answer.json.errors[0].code).toBe('CONCURRENT_CHANGE');
  }
}
