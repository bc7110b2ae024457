import { beforeAll, describe, expect, it } from 'vitest';
import { backends, codes, register, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/** Malformed input is a 400 with an error entry a person can act on; never a stack trace. */
describe.each(backends())('malformed input on %s', (backend) => {
  const env = serviceForTests(backend);
  let id: string;

  beforeAll(async () => {
    await register(env, ['EPC000101']);
    id = (await env.call('POST', '/configurations', { body: { name: 'target' } })).json.data.id;
  });

  const expectClear = (
    response: Awaited<ReturnType<TestEnv['call']>>,
    status: number,
    code: string,
    field?: string,
  ) => {
    expect(response.status).toBe(status);
    expect(response.json.success).toBe(false);
    expect(response.json.data).toBeNull();
    const entry = response.json.errors!.find((e) => e.code === code);
    expect(entry, JSON.stringify(response.json.errors)).toBeDefined();
    expect(entry!.message.length).toBeGreaterThan(10);
    if (field) expect(entry!.field).toBe(field);
    expect(JSON.stringify(response.json)).not.toMatch(/\bat \w+ \(|node_modules|\.ts:\d+/);
  };

  it('bad JSON', async () => {
    expectClear(await env.call('POST', '/configurations', { rawBody: '{"name": "x",' }), 400, 'INVALID_JSON');
    expectClear(await env.call('PUT', '/apiKeys/demo-admin/role', { rawBody: 'Admin' }), 400, 'INVALID_JSON');
    expectClear(await env.call('POST', '/configurations', { rawBody: '' }), 400, 'BODY_REQUIRED');
    expectClear(
      await env.call('POST', '/configurations', { rawBody: '{"__proto__": {"x": 1}, "name": "p"}' }),
      400,
      'INVALID_JSON',
    );
  });

  it('wrong types', async () => {
    expectClear(
      await env.call('POST', '/configurations', { body: { name: 'x', ismTxChannel: '5' } }),
      400,
      'INVALID_TYPE',
      'ismTxChannel',
    );
    expectClear(await env.call('POST', '/configurations', { body: ['name'] }), 400, 'INVALID_TYPE');
    expectClear(await env.call('POST', '/configurations', { body: 'a string' }), 400, 'INVALID_TYPE');
    expectClear(
      await env.call('PUT', '/apiKeys/demo-admin/role', { body: { role: 'Admin' } }),
      400,
      'INVALID_ENUM_VALUE',
    );
    expectClear(
      await env.call('POST', `/configurations/${id}/devices`, { body: { serialNumber: 12 } }),
      400,
      'INVALID_TYPE',
      'serialNumber',
    );
    expectClear(
      await env.call('POST', `/configurations/${id}/devices`, {
        body: { serialNumber: 'EPC000101', ossdEnabled: 'yes' },
      }),
      400,
      'INVALID_TYPE',
      'ossdEnabled',
    );
    expectClear(await env.call('GET', '/configurations?Limit=ten'), 400, 'INVALID_INTEGER', 'Limit');
    expectClear(
      await env.call('PATCH', `/configurations/${id}?dryRun=maybe`, { body: {} }),
      400,
      'INVALID_BOOLEAN',
      'dryRun',
    );
    expectClear(await env.call('GET', '/devices?limit=1&limit=2'), 400, 'INVALID_INTEGER', 'limit');
  });

  it('unknown enum values', async () => {
    expectClear(
      await env.call('POST', '/configurations', { body: { name: 'x', timeoutConfiguration: 2000 } }),
      400,
      'INVALID_ENUM_VALUE',
      'timeoutConfiguration',
    );
    expectClear(
      await env.call('POST', '/configurations', { body: { name: 'x', canKBitrate: 'bitrate_250000' } }),
      400,
      'INVALID_ENUM_VALUE',
      'canKBitrate',
    );
    expectClear(await env.call('PUT', '/apiKeys/demo-admin/role', { body: 'Root' }), 400, 'INVALID_ENUM_VALUE');
    expectClear(
      await env.call('POST', '/users', { body: { email: 'a@b.example', userRole: 'Service' } }),
      400,
      'INVALID_ENUM_VALUE',
      'userRole',
    );
    expectClear(await env.call('GET', '/apiKeys?KeyFormat=Plain'), 400, 'INVALID_ENUM_VALUE', 'KeyFormat');
    expectClear(await env.call('GET', '/devices/types/srcp/firmware'), 400, 'INVALID_ENUM_VALUE', 'path.deviceType');
  });

  it('oversized bodies', async () => {
    expectClear(
      await env.call('POST', '/configurations', { rawBody: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }) }),
      400,
      'BODY_TOO_LARGE',
    );
  });

  it('bad uuids', async () => {
    expectClear(await env.call('GET', '/configurations/not-a-uuid'), 400, 'INVALID_UUID', 'path.id');
    expectClear(await env.call('GET', '/configurations/validate/1234'), 400, 'INVALID_UUID', 'path.id');
    expectClear(await env.call('DELETE', '/users/xyz'), 400, 'INVALID_UUID', 'path.id');
    expectClear(
      await env.call('GET', '/ipNetworkTemplates/00000000-0000-0000-0000-00000000000g'),
      400,
      'INVALID_UUID',
      'path.id',
    );
  });

  it('unknown fields and query parameters, missing bodies, other media types', async () => {
    expectClear(
      await env.call('POST', '/configurations', { body: { name: 'x', Name: 'y' } }),
      400,
      'UNKNOWN_FIELD',
      'Name',
    );
    expectClear(await env.call('GET', '/users?isActive=true'), 400, 'UNKNOWN_FIELD', 'isActive');
    expectClear(await env.call('POST', '/configurations'), 400, 'BODY_REQUIRED');
    expectClear(
      await env.call('POST', '/configurations', {
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectClear(await env.call('GET', '/no-such-thing'), 404, 'ROUTE_NOT_FOUND');
  });

  it('changes nothing when refused', async () => {
    const before = (await env.call('GET', `/configurations/${id}`)).json.data;
    await env.call('PATCH', `/configurations/${id}`, { body: { name: 'y', ismTxChannel: 'x' } });
    await env.call('PATCH', `/configurations/${id}`, { rawBody: '{"name": "z"' });
    expect((await env.call('GET', `/configurations/${id}`)).json.data).toEqual(before);
    expect(codes(await env.call('GET', `/configurations/${id}`))).toEqual([]);
  });
});
