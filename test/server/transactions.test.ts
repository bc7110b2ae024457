import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../server';
import { buildApp } from '../../server/http/app';
import { badRequest } from '../../server/http/errors';
import { publicOperation } from '../../server/http/operation';
import { createOrganization, getOrganization } from '../../server/store/organizations';
import { backends, codes, register } from './harness';
import { serviceForTests } from './helpers/service-env';

describe.each(backends())('transactions on %s', (backend) => {
  const env = serviceForTests(backend);

  beforeAll(async () => {
    await register(env, ['EPC000101', 'EPC000102']);
  });

  it('rolls back everything a mutating operation wrote when it then fails', async () => {
    // An operation that writes and then fails, served exactly as the real ones are.
    const failing = publicOperation({
      id: 'public.writeThenFail',
      method: 'POST',
      path: '/test/write-then-fail',
      tag: 'Test',
      summary: 'test only',
      mutates: true,
      response: { kind: 'json', data: (await import('zod')).z.boolean(), description: 'never' },
      handler: async ({ db }) => {
        await createOrganization(db, { id: 'half-made', name: 'half', region: 'NA' });
        expect(await getOrganization(db, 'half-made')).toBeDefined();
        throw badRequest('TEST_FAILURE', 'failed after writing');
      },
    });
    const app = buildApp(await createContext(env.db), [failing]);
    const response = await app.inject({ method: 'POST', url: '/v1/test/write-then-fail' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].code).toBe('TEST_FAILURE');
    expect(await getOrganization(env.db, 'half-made')).toBeUndefined();
    await app.close();
  });

  it('lets exactly one of many concurrent requests put a device in a configuration', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await env.call('POST', '/configurations', { body: { name: `race ${i}` } })).json.data.id);
    const responses = await Promise.all(
      ids.map((id) => env.call('POST', `/configurations/${id}/devices`, { body: { serialNumber: 'EPC000101' } })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of responses.filter((r) => r.status === 409))
      expect(['DEVICE_IN_OTHER_CONFIGURATION', 'CONCURRENT_CHANGE']).toContain(codes(r)[0]);
    const { rows } = await env.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM configuration_devices WHERE serial_number = 'EPC000101'",
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('issues one syncId for one content however many downloads race', async () => {
    const id = (
      await env.call('POST', '/configurations', {
        body: { name: 'sync race', timeoutConfiguration: '1000ms', canMode: 'none' },
      })
    ).json.data.id;
    await env.call(
      'DELETE',
      `/configurations/${(await env.call('GET', '/devices?serial=EPC000101')).json.data.items[0].configurationId}/devices/EPC000101`,
    );
    await env.call('POST', `/configurations/${id}/devices`, {
      body: { serialNumber: 'EPC000101', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
    });
    await env.call('POST', `/configurations/${id}/devices`, {
      body: { serialNumber: 'EPC000102', deviceConfigurationType: 'Receiver', commInterface: 'BLE' },
    });
    const downloads = await Promise.all(
      Array.from({ length: 8 }, () => env.call('GET', '/devices/EPC000101/configuration-file')),
    );
    expect(downloads.map((d) => d.status)).toEqual(Array(8).fill(200));
    expect(new Set(downloads.map((d) => d.headers.get('x-config-file-sync-id'))).size).toBe(1);
  });
});
