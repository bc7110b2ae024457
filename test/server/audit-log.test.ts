import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startService, type RunningService } from '../../server';
import { issueKey } from '../../server';
import { pgliteTemplate } from './harness';
import { call } from './postgres-cluster';

interface LogLine {
  level: number;
  msg: string;
  audit?: {
    orgId: string | null;
    keyName: string | null;
    role: string | null;
    method: string;
    route: string | null;
    status: number;
    outcome: string;
    client: string;
  };
  security?: { event: string; [field: string]: unknown };
}

/** A service on one database, its log lines kept: one trusting 127.0.0.1 as its load balancer, or not. */
async function loggedService(
  trustedProxies?: string[],
): Promise<{ service: RunningService; lines: () => LogLine[]; raw: () => string }> {
  let raw = '';
  const db = await openDatabase({ dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() });
  const service = await startService({
    db,
    port: 0,
    logStream: { write: (chunk: string) => ((raw += chunk), true) } as unknown as NodeJS.WritableStream,
    ...(trustedProxies ? { trustedProxies } : {}),
  });
  const close = service.close.bind(service);
  service.close = async () => {
    await close();
    await db.close();
  };
  return {
    service,
    raw: () => raw,
    lines: () =>
      raw
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine),
  };
}

describe('logs an auditor can use', () => {
  let direct: Awaited<ReturnType<typeof loggedService>>;
  let behindProxy: Awaited<ReturnType<typeof loggedService>>;
  let adminKey: string;
  let operatorKey: string;
  beforeAll(async () => {
    direct = await loggedService();
    behindProxy = await loggedService(['127.0.0.1']);
    adminKey = await issueKey(direct.service.db, { orgId: 'demo', name: 'auditor-admin', role: 'Admin' });
    operatorKey = await issueKey(direct.service.db, { orgId: 'demo', name: 'line-3', role: 'Operator' });
  });
  afterAll(async () => {
    await direct?.service.close();
    await behindProxy?.service.close();
  });

  it("names each request's organization, key name and role, route pattern, outcome and client; never the key's value", async () => {
    expect(
      (await call(direct.service.url, operatorKey, 'GET', 'devices/types/SRCP/firmware/version')).status,
    ).toBeLessThan(500);
    expect((await call(direct.service.url, operatorKey, 'POST', 'configurations', { body: {} })).status).toBe(403);
    const audit = direct.lines().filter((line) => line.audit?.keyName === 'line-3');
    expect(audit.find((line) => line.audit?.status === 403)?.security).toEqual({ event: 'access-denied', status: 403 });
    expect(audit.map((line) => line.audit)).toEqual([
      expect.objectContaining({
        orgId: 'demo',
        role: 'Operator',
        method: 'GET',
        route: '/v1/organizations/:orgId/devices/types/:deviceType/firmware/version',
        client: '127.0.0.1',
      }),
      expect.objectContaining({
        orgId: 'demo',
        method: 'POST',
        route: '/v1/organizations/:orgId/configurations',
        status: 403,
        outcome: 'refused',
      }),
    ]);
    expect(direct.raw()).not.toContain(operatorKey.slice(4));
    expect(direct.raw()).not.toContain(adminKey.slice(4));
  });

  it('puts failed authentication in the security field, without the key that was tried', async () => {
    const tried = 'pvk_not-a-key-anyone-issued';
    expect((await call(direct.service.url, tried, 'GET', 'configurations')).status).toBe(401);
    const failed = direct.lines().filter((line) => line.security?.event === 'auth-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      level: 40,
      audit: { orgId: null, keyName: null, status: 401, outcome: 'refused' },
    });
    expect(direct.raw()).not.toContain('not-a-key-anyone-issued');
  });

  it('puts key creation, rotation, role change and revocation in the security field, naming who did it', async () => {
    const url = direct.service.url;
    expect((await call(url, adminKey, 'POST', 'apiKeys', { body: { name: 'audited', role: 'Service' } })).status).toBe(
      201,
    );
    expect((await call(url, adminKey, 'PUT', 'apiKeys/audited/role', { body: 'Operator' })).status).toBe(200);
    expect(
      (await call(url, adminKey, 'POST', 'apiKeys/audited/rotate', { body: { oldKeyValidForSeconds: 60 } })).status,
    ).toBe(201);
    expect((await call(url, adminKey, 'DELETE', 'apiKeys/audited')).status).toBe(200);
    const events = direct
      .lines()
      .filter((line) => line.security?.event.startsWith('key-'))
      .map((line) => line.security);
    expect(events).toEqual([
      { event: 'key-created', orgId: 'demo', keyName: 'audited', role: 'Service', by: 'auditor-admin' },
      { event: 'key-role-changed', orgId: 'demo', keyName: 'audited', role: 'Operator', by: 'auditor-admin' },
      { event: 'key-rotated', orgId: 'demo', keyName: 'audited', role: 'Operator', by: 'auditor-admin' },
      { event: 'key-revoked', orgId: 'demo', keyName: 'audited', role: 'Operator', by: 'auditor-admin' },
    ]);
  });

  it('logs what each start runs with as a configuration event: switches and names, never a secret', () => {
    const starts = behindProxy.lines().filter((line) => line.security?.event === 'configuration');
    expect(starts.map((line) => line.security)).toEqual([
      {
        event: 'configuration',
        setting: 'start',
        database: 'pglite',
        sealingKey: 'database',
        trustedProxies: ['127.0.0.1'],
        metricsToken: false,
      },
    ]);
  });

  it('takes the client address from X-Forwarded-For only when the peer is a trusted proxy', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    await call(direct.service.url, operatorKey, 'GET', 'configurations', { headers: forwarded });
    const operatorOnProxy = await issueKey(behindProxy.service.db, {
      orgId: 'demo',
      name: 'via-proxy',
      role: 'Operator',
    });
    await call(behindProxy.service.url, operatorOnProxy, 'GET', 'configurations', { headers: forwarded });
    expect(
      direct
        .lines()
        .filter(
          (line) =>
            line.audit?.keyName === 'line-3' &&
            line.audit.route === '/v1/organizations/:orgId/configurations' &&
            line.audit.method === 'GET',
        )
        .map((line) => line.audit!.client),
    ).toEqual(['127.0.0.1']);
    expect(
      behindProxy
        .lines()
        .filter((line) => line.audit?.keyName === 'via-proxy')
        .map((line) => line.audit!.client),
    ).toEqual(['203.0.113.7']);
  });
});
