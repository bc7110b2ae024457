import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, startService, type RunningService } from '../../server';
import { runInProcess, useOperatorDataDir } from './cli-run';
import { backends, codes, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';
import { call, POSTGRES_URL, scratchDatabase, startInstances, type ScratchDatabase } from './postgres-cluster';

/** Waits until the wall clock is past `iso` (a rotated key's end), in bounded steps. */
async function until(iso: string): Promise<void> {
  const end = Date.parse(iso);
  for (let step = 0; step < 600 && Date.now() <= end; step++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(Date.now()).toBeGreaterThan(end);
}

async function create(env: TestEnv, name: string, role: string, key?: string): Promise<string> {
  const made = await env.call('POST', '/apiKeys', { body: { name, role }, ...(key ? { key } : {}) });
  expect(made.status, JSON.stringify(made.json.errors)).toBe(201);
  return made.json.data.key as string;
}

const works = async (env: TestEnv, key: string) => (await env.call('GET', '/configurations', { key })).status;

describe.each(backends())('API keys an Admin or KeyManager takes back, on %s', (backend) => {
  const env = serviceForTests(backend);

  it('issues a key through the API, shown whole this once; refuses a taken name, a bad name and a role above the caller', async () => {
    const key = await create(env, 'line-1', 'Operator');
    expect(key).toMatch(/^pvk_/);
    expect(await works(env, key)).toBe(200);
    const again = await env.call('POST', '/apiKeys', { body: { name: 'line-1', role: 'Operator' } });
    expect([again.status, codes(again)]).toEqual([409, ['API_KEY_NAME_TAKEN']]);
    const badName = await env.call('POST', '/apiKeys', { body: { name: '../x', role: 'Operator' } });
    expect(badName.status).toBe(400);
    const keyManager = await env.keyFor('KeyManager');
    const escalation = await env.call('POST', '/apiKeys', {
      key: keyManager,
      body: { name: 'sneaky-admin', role: 'Admin' },
    });
    expect([escalation.status, codes(escalation)]).toEqual([403, ['ROLE_ESCALATION_FORBIDDEN']]);
    const listed = await env.call('GET', '/apiKeys?Name=sneaky-admin');
    expect(listed.json.data).toEqual([]);
  });

  it('revokes a key: refused on the very next request; unknown names are 404; a KeyManager cannot revoke an Admin key', async () => {
    const key = await create(env, 'stolen-laptop', 'DeviceManager');
    expect(await works(env, key)).toBe(200);
    const revoked = await env.call('DELETE', '/apiKeys/stolen-laptop');
    expect([revoked.status, revoked.json.data]).toEqual([200, true]);
    const refused = await env.call('GET', '/configurations', { key });
    expect([refused.status, codes(refused)]).toEqual([401, ['API_KEY_INVALID']]);
    expect((await env.call('DELETE', '/apiKeys/stolen-laptop')).status).toBe(404);

    const admin = await create(env, 'second-admin', 'Admin');
    const byKeyManager = await env.call('DELETE', '/apiKeys/second-admin', { key: await env.keyFor('KeyManager') });
    expect([byKeyManager.status, codes(byKeyManager)]).toEqual([403, ['ROLE_ESCALATION_FORBIDDEN']]);
    expect(await works(env, admin)).toBe(200);
  });

  it('rotates a key: the new one works at once under the same name and role, the old one until its stated time, then is refused', async () => {
    const old = await create(env, 'factory-line', 'Service');
    const rotated = await env.call('POST', '/apiKeys/factory-line/rotate', { body: { oldKeyValidForSeconds: 3600 } });
    expect(rotated.status).toBe(201);
    expect(rotated.json.data).toMatchObject({ name: 'factory-line', role: 'Service', expiresAt: null });
    const fresh = rotated.json.data.key as string;
    expect(fresh).not.toBe(old);
    const download = (key: string) => env.call('GET', '/devices/types/SRCP/firmware/version', { key });
    expect((await download(fresh)).status).not.toBe(401);
    expect((await download(old)).status).not.toBe(401);
    const listed = (await env.call('GET', '/apiKeys?Name=factory-line')).json.data as {
      name: string;
      expiresAt: string | null;
    }[];
    expect(listed).toHaveLength(2);
    expect(listed[0]!.expiresAt).toBeNull();
    expect(Date.parse(listed[1]!.expiresAt!)).toBeGreaterThan(Date.now() + 3500_000);
    // One name, one role: a role change reaches the key still working too.
    expect((await env.call('PUT', '/apiKeys/factory-line/role', { body: 'Operator' })).status).toBe(200);
    expect(await works(env, old)).toBe(200);
    // A revocation takes both.
    expect((await env.call('DELETE', '/apiKeys/factory-line')).status).toBe(200);
    expect((await download(old)).status).toBe(401);
    expect((await download(fresh)).status).toBe(401);

    const short = await create(env, 'short-overlap', 'Operator');
    const next = await env.call('POST', '/apiKeys/short-overlap/rotate', { body: { oldKeyValidForSeconds: 1 } });
    const ends = (
      (await env.call('GET', '/apiKeys?Name=short-overlap')).json.data as { expiresAt: string | null }[]
    ).find((k) => k.expiresAt)!.expiresAt!;
    await until(ends);
    const refused = await env.call('GET', '/configurations', { key: short });
    expect([refused.status, codes(refused)]).toEqual([401, ['API_KEY_INVALID']]);
    expect(refused.json.errors?.[0]?.message).toContain(`stopped working at ${ends}`);
    expect((await env.call('POST', '/apiKeys/validate', { body: { apiKey: short } })).json.data.valid).toBe(false);
    expect(await works(env, next.json.data.key)).toBe(200);

    const tooLong = await env.call('POST', '/apiKeys/short-overlap/rotate', {
      body: { oldKeyValidForSeconds: 31 * 86_400 },
    });
    expect(tooLong.status).toBe(400);
  });
});

describe('key list, revoke and rotate for operators (a stopped PGlite service)', () => {
  const operator = useOperatorDataDir('key-commands');
  let adminKey: string;
  const keyArgs = (...args: string[]) => runInProcess(['key', ...args, '--data', operator.data]);

  beforeAll(async () => {
    adminKey = (await runInProcess(['seed-demo', '--data', operator.data])).out.trim();
  });

  it('lists keys without their values, revokes one and rotates another; the service started afterwards agrees', async () => {
    const revoked = (await keyArgs('create', '--org', 'demo', '--name', 'laptop-7', '--role', 'Operator')).out.trim();
    const rotatedOld = (await keyArgs('create', '--org', 'demo', '--name', 'line-2', '--role', 'Service')).out.trim();
    const listed = await keyArgs('list', '--org', 'demo');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^laptop-7 {2}Operator {2}created \S+ {2}last used never$/m);
    for (const value of [adminKey, revoked, rotatedOld]) expect(listed.out).not.toContain(value.slice(4));

    expect(await keyArgs('revoke', '--org', 'demo', '--name', 'laptop-7')).toMatchObject({
      code: 0,
      out: 'revoked laptop-7 of organization demo\n',
    });
    expect((await keyArgs('revoke', '--org', 'demo', '--name', 'laptop-7')).err).toMatch(/has no key named "laptop-7"/);
    expect((await keyArgs('revoke', '--org', 'nowhere', '--name', 'laptop-7')).err).toMatch(
      /There is no organization "nowhere"/,
    );

    const rotation = await keyArgs('rotate', '--org', 'demo', '--name', 'line-2', '--old-valid-for', '2h');
    expect(rotation.code).toBe(0);
    expect(rotation.out).toMatch(/^pvk_\S+\n$/);
    expect(rotation.err).toMatch(
      /the old key line-2 works until \S+Z; the line above is its replacement \(role Service\)/,
    );
    const json = JSON.parse((await keyArgs('list', '--org', 'demo', '--json')).out) as {
      name: string;
      expiresAt: string | null;
    }[];
    expect(json.filter((k) => k.name === 'line-2').map((k) => k.expiresAt === null)).toEqual([true, false]);
    expect((await keyArgs('rotate', '--org', 'demo', '--name', 'line-2', '--old-valid-for', '31d')).err).toMatch(
      /at most 30d/,
    );

    const service = await startService({ dataDir: operator.data, port: 0 });
    try {
      const status = async (key: string) =>
        (await call(service.url, key, 'GET', 'devices/types/SRCP/firmware/version')).status;
      expect(await status(revoked)).toBe(401);
      expect(await status(rotatedOld)).not.toBe(401);
      expect(await status(rotation.out.trim())).not.toBe(401);
    } finally {
      await service.close();
    }
    // PGlite opens a dozen times here (each command, then the service): seconds each on a busy machine.
  }, 300_000);
});

describe.skipIf(!POSTGRES_URL)(
  'revocation and rotation on two instances of one PostgreSQL database (needs TEST_DATABASE_URL)',
  () => {
    let database: ScratchDatabase;
    let a: RunningService;
    let b: RunningService;
    let adminKey: string;
    beforeAll(async () => {
      database = await scratchDatabase();
      [a, b] = (await startInstances(database.url, 2)) as [RunningService, RunningService];
      ({ adminKey } = await seedDemo(a.db));
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    const make = async (name: string): Promise<string> => {
      const made = await call(a.url, adminKey, 'POST', 'apiKeys', { body: { name, role: 'Operator' } });
      expect(made.status).toBe(201);
      return made.json.data.key as string;
    };

    it('a key revoked through one instance is refused by the other on its very next request, though it had the key cached', async () => {
      const key = await make('revoked-via-a');
      for (let i = 0; i < 3; i++) expect((await call(b.url, key, 'GET', 'configurations')).status).toBe(200);
      expect((await call(a.url, adminKey, 'DELETE', 'apiKeys/revoked-via-a')).status).toBe(200);
      for (const instance of [b, a]) expect((await call(instance.url, key, 'GET', 'configurations')).status).toBe(401);
    });

    it('a key rotated with no overlap through one instance is refused by the other at once; its replacement works on both', async () => {
      const key = await make('rotated-via-a');
      for (let i = 0; i < 3; i++) expect((await call(b.url, key, 'GET', 'configurations')).status).toBe(200);
      const rotated = await call(a.url, adminKey, 'POST', 'apiKeys/rotated-via-a/rotate', {
        body: { oldKeyValidForSeconds: 0 },
      });
      expect(rotated.status).toBe(201);
      for (const instance of [b, a]) {
        expect((await call(instance.url, key, 'GET', 'configurations')).status).toBe(401);
        expect((await call(instance.url, rotated.json.data.key, 'GET', 'configurations')).status).toBe(200);
      }
    });

    it('a key revoked by the operator command is refused by both running instances on their next request', async () => {
      const key = await make('revoked-by-cli');
      for (const instance of [a, b]) expect((await call(instance.url, key, 'GET', 'configurations')).status).toBe(200);
      const revoked = await runInProcess([
        'key',
        'revoke',
        '--org',
        'demo',
        '--name',
        'revoked-by-cli',
        '--database-url',
        database.url,
      ]);
      expect(revoked.code, revoked.err).toBe(0);
      for (const instance of [b, a]) expect((await call(instance.url, key, 'GET', 'configurations')).status).toBe(401);
    });
  },
);
