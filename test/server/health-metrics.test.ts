import { beforeAll, describe, expect, it } from 'vitest';
import { startService, type Database, type RunningService } from '../../server';
import { buildApp } from '../../server/http/app';
import { MIGRATIONS } from '../../server/db/migrations';
import { DatabaseUnavailableError } from '../../server/db/failures';
import { backends, register } from './harness';
import { serviceForTests } from './helpers/service-env';

/** The operational face of each instance: probes, request ids and metrics, on both backends. */
describe.each(backends())('health, request ids and metrics on %s', (backend) => {
  const env = serviceForTests(backend);

  beforeAll(async () => {
    await register(env, ['EPC000101']);
  });

  it('answers /healthz, and /readyz only while every migration is applied', async () => {
    expect(await (await fetch(`${env.url}/healthz`)).json()).toEqual({ status: 'alive' });
    expect(await (await fetch(`${env.url}/readyz`)).json()).toEqual({ status: 'ready' });
    const last = MIGRATIONS.at(-1)!;
    await env.db.query('DELETE FROM schema_migrations WHERE version = $1', [last.version]);
    try {
      const pending = await fetch(`${env.url}/readyz`);
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({ status: 'migrations pending', pending: [last.version] });
    } finally {
      await env.db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [last.version, last.name]);
    }
    expect((await fetch(`${env.url}/readyz`)).status).toBe(200);
  });

  it('is not ready while its database does not answer', async () => {
    const unreachable = new Proxy(env.db, {
      get: (target, property, receiver) =>
        property === 'query'
          ? () => Promise.reject(new DatabaseUnavailableError(new Error('connect ECONNREFUSED')))
          : Reflect.get(target, property, receiver),
    }) as Database;
    const app = buildApp({ ...env.service.ctx, db: unreachable }, []);
    const answer = await app.inject({ method: 'GET', url: '/readyz' });
    expect([answer.statusCode, answer.json()]).toEqual([503, { status: 'database unreachable' }]);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });

  it('keeps a sane X-Request-Id and replaces any other with a new one', async () => {
    const kept = await env.call('GET', '/configurations', { headers: { 'X-Request-Id': 'lb-7f3a:42' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a:42');
    for (const insane of ['has space', 'x'.repeat(129), 'quote"d']) {
      const replaced = await env.call('GET', '/configurations', { headers: { 'X-Request-Id': insane } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Errors carry it too, and each request without one gets its own.
    const a = await env.call('GET', '/configurations', { key: null });
    const b = await env.call('GET', '/nowhere');
    expect(a.status).toBe(401);
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });

  it('counts requests by route and status, confirmations and cache lookups in /metrics', async () => {
    const confirmation = {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.0.0',
      applyTimeStamp: new Date().toISOString(),
    };
    const headers = { 'Idempotency-Key': `metrics-${backend}` };
    for (let i = 0; i < 2; i++)
      expect(
        (await env.call('POST', '/devices/EPC000101/confirm-apply-firmware', { body: confirmation, headers })).status,
      ).toBe(200);
    // A repeated read is answered from the cache. On PostgreSQL only while nothing committed in
    // between anywhere on the server, and other tests may share it: read until one is.
    const reads = env.service.ctx.reads!;
    const hitsBefore = reads.stats.hits;
    for (let i = 0; i < 50 && reads.stats.hits === hitsBefore; i++) await env.call('GET', '/configurations');
    expect(reads.stats.hits).toBeGreaterThan(hitsBefore);
    const response = await fetch(`${env.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /provisioner_http_request_duration_seconds_count\{method="GET",route="\/v1\/organizations\/:orgId\/configurations",status_code="200"\} \d+/,
    );
    expect(text).toMatch(
      /provisioner_http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/v1\/organizations\/:orgId\/devices\/:serialNumber\/confirm-apply-firmware",status_code="200"\}/,
    );
    expect(text).toContain('provisioner_confirmations_total{kind="firmware",result="recorded"} 1');
    expect(text).toContain('provisioner_confirmations_total{kind="firmware",result="replay"} 1');
    expect(text).toMatch(/provisioner_cache_lookups_total\{cache="read",result="hit"\} [1-9]/);
    // The confirmations ran their statements (the replay too: it looked its key up).
    expect(text).toMatch(
      /provisioner_db_statements_total\{method="POST",route="\/v1\/organizations\/:orgId\/devices\/:serialNumber\/confirm-apply-firmware"\} [1-9]/,
    );
    if (backend === 'postgres') {
      expect(text).toMatch(/provisioner_db_pool_connections\{state="total"\} [1-9]/);
      // Every operation first caught up with the other instances' commits: at least one query was sent for that.
      expect(text).toMatch(/provisioner_catch_up_total\{result="query"\} [1-9]/);
    }
  });

  it('shows /metrics to a direct loopback peer only, unless it sends the token', async () => {
    const relayed = await fetch(`${env.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(relayed.status).toBe(403);
    expect(((await relayed.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('METRICS_FORBIDDEN');

    const withToken: RunningService = await startService({ db: env.db, port: 0, metrics: { token: 'scrape-me' } });
    try {
      const viaProxy = { 'X-Forwarded-For': '203.0.113.9' };
      expect((await fetch(`${withToken.url}/metrics`, { headers: viaProxy })).status).toBe(403);
      expect(
        (await fetch(`${withToken.url}/metrics`, { headers: { ...viaProxy, authorization: 'Bearer wrong-token' } }))
          .status,
      ).toBe(403);
      expect(
        (await fetch(`${withToken.url}/metrics`, { headers: { ...viaProxy, authorization: 'Bearer scrape-me' } }))
          .status,
      ).toBe(200);
    } finally {
      await withToken.close();
    }
  });
});
