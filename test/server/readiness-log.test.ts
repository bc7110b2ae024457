import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startService, type Database, type RunningService } from '../../server';
import { pgliteTemplate } from './harness';

/**
 * A load balancer probes /readyz twice a second: while the database is away, the instance says so
 * once (and why), and once again when it is back, not on every probe.
 */
describe('readiness in the log', () => {
  let real: Database;
  let service: RunningService;
  let raw = '';
  let away = false;
  beforeAll(async () => {
    real = await openDatabase({ dataDir: 'memory://', pgliteTemplate: await pgliteTemplate() });
    // The same database, made to fail its queries while `away`, as a PostgreSQL outage does.
    const flaky: Database = {
      ...real,
      query: (sql, params) =>
        away
          ? Promise.reject(
              new Error('connect ECONNREFUSED 127.0.0.1:5432', {
                cause: new Error('connect ECONNREFUSED 127.0.0.1:5432'),
              }),
            )
          : real.query(sql, params),
    };
    service = await startService({
      db: flaky,
      port: 0,
      logStream: { write: (chunk: string) => ((raw += chunk), true) } as unknown as NodeJS.WritableStream,
    });
  });
  afterAll(async () => {
    await service?.close();
    await real?.close();
  });

  const probe = async (): Promise<number> => (await fetch(`${service.url}/readyz`)).status;
  const readinessLines = () =>
    raw
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; readiness?: string; reason?: string; msg: string })
      .filter((line) => line.readiness);

  it('logs each change of state once, with the reason, however often it is probed; probes are not logged otherwise', async () => {
    for (let i = 0; i < 3; i++) expect(await probe()).toBe(200);
    away = true;
    for (let i = 0; i < 5; i++) expect(await probe()).toBe(503);
    away = false;
    for (let i = 0; i < 3; i++) expect(await probe()).toBe(200);
    away = true;
    expect(await probe()).toBe(503);
    away = false;
    expect(readinessLines().map((line) => [line.level, line.readiness, line.msg])).toEqual([
      [40, 'database unreachable', 'not ready: the database does not answer'],
      [30, 'ready', 'ready again'],
      [40, 'database unreachable', 'not ready: the database does not answer'],
    ]);
    expect(readinessLines()[0]!.reason).toContain('ECONNREFUSED');
    expect(raw).not.toContain('"/readyz"');
  });
});
