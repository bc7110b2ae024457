import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { serviceForTests } from './helpers/service-env';

/**
 * A PostgreSQL server closes connections on a restart, a failover or an administrator's command.
 * The service must not die of it (an idle pooled connection reports the close as an 'error' event)
 * and must answer again with fresh connections.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('service on PostgreSQL when the server closes its connections', () => {
  const env = serviceForTests('postgres');

  it('keeps running and answers again', async () => {
    expect((await env.call('GET', '/configurations')).status).toBe(200);
    const { rows } = await env.db.query<{ name: string }>('SELECT current_database() AS name');
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const terminated = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [rows[0]!.name],
    );
    await admin.end();
    expect(terminated.rowCount).toBeGreaterThan(0);

    // The first request after the cut may still meet a dead connection; the service must recover.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await env.call('GET', '/configurations')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    // Writes run in transactions on fresh connections too.
    expect((await env.call('POST', '/configurations', { body: { name: 'After the restart' } })).status).toBe(201);
  });
});
