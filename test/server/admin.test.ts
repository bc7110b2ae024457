import { describe, expect, it } from 'vitest';
import { apiKeyRecordSchema, ipNetworkTemplateRecordSchema, pageSchema, userRecordSchema } from '../../domain';
import { backends, codes } from './harness';
import { serviceForTests } from './helpers/service-env';

describe.each(backends())('templates, users, keys and versions on %s', (backend) => {
  const env = serviceForTests(backend);

  it('creates, reads and lists IP network templates with filters and sorting', async () => {
    const make = async (body: Record<string, unknown>) => {
      const response = await env.call('POST', '/ipNetworkTemplates', { body });
      expect(response.status, JSON.stringify(response.json.errors)).toBe(201);
      return ipNetworkTemplateRecordSchema.parse(response.json.data);
    };
    const lan = await make({
      ipNetworkTemplateName: 'Plant LAN',
      commInterface: 'Ethernet',
      netmask: '255.255.255.0',
      gatewayIpAddress: '10.0.0.1',
      nameservers: ['10.0.0.2'],
    });
    const wifi = await make({
      ipNetworkTemplateName: 'Yard wifi',
      commInterface: 'WIFI',
      netmask: '255.255.0.0',
      ssid: 'yard',
      password: 'pw',
    });
    await make({ ipNetworkTemplateName: 'another lan', commInterface: 'Ethernet', netmask: '255.0.0.0' });
    expect(lan).toMatchObject({
      commInterface: 'Ethernet',
      gatewayIpAddress: '10.0.0.1',
      nameservers: ['10.0.0.2'],
      passwordSet: false,
      ssid: null,
    });
    expect(wifi).toMatchObject({ commInterface: 'Wifi', ssid: 'yard', passwordSet: true });
    expect((await env.call('GET', `/ipNetworkTemplates/${lan.id}`)).json.data).toEqual(lan);
    const names = async (query: string) =>
      (await env.call('GET', `/ipNetworkTemplates?${query}`)).json.data.map(
        (t: { ipNetworkTemplateName: string }) => t.ipNetworkTemplateName,
      );
    expect(await names('')).toEqual(['another lan', 'Plant LAN', 'Yard wifi']);
    expect(await names('nameFilter=LAN')).toEqual(['another lan', 'Plant LAN']);
    expect(await names('typeFilter=Wifi')).toEqual(['Yard wifi']);
    expect(await names('sortBy=Name&sortDirection=Descending')).toEqual(['Yard wifi', 'Plant LAN', 'another lan']);
    expect(await names('sortBy=LastEdited&sortDirection=Ascending')).toEqual(['Plant LAN', 'Yard wifi', 'another lan']);
    expect(await names('limit=2&page=2')).toEqual(['Yard wifi']);
    expect(
      codes(
        await env.call('POST', '/ipNetworkTemplates', {
          body: { ipNetworkTemplateName: 'x', commInterface: 'Ethernet', netmask: '255.255.255.0', ssid: 'no' },
        }),
      ),
    ).toEqual(['WIFI_FIELD_WITHOUT_WIFI']);
    expect(codes(await env.call('GET', '/ipNetworkTemplates/3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f'))).toEqual([
      'TEMPLATE_NOT_FOUND',
    ]);
  });

  it('registers users, changes roles, deletes (deactivates) and filters them', async () => {
    for (const [email, userRole] of [
      ['zoe@example.com', 'Operator'],
      ['adam@example.com', 'ConfigManager'],
      ['max@plant.example', 'DeviceManager'],
    ] as const) {
      const response = await env.call('POST', '/users', { body: { email, userRole } });
      expect(response.json).toEqual({ data: true, success: true, errors: null });
    }
    expect(codes(await env.call('POST', '/users', { body: { email: 'ZOE@example.com', userRole: 'Admin' } }))).toEqual([
      'USER_ALREADY_EXISTS',
    ]);
    const list = async (query: string) => {
      const response = await env.call('GET', `/users?${query}`);
      pageSchema(userRecordSchema).parse(response.json.data);
      return response.json.data;
    };
    const all = await list('');
    expect(all).toMatchObject({ totalCount: 3, page: 1 });
    expect(all.items.map((u: { email: string }) => u.email)).toEqual([
      'adam@example.com',
      'max@plant.example',
      'zoe@example.com',
    ]);
    expect((await list('SortOptions=FirstNameDESC')).items[0].email).toBe('zoe@example.com');
    expect((await list('Search=PLANT')).items.map((u: { email: string }) => u.email)).toEqual(['max@plant.example']);
    const zoe = all.items[2];
    expect(zoe).toMatchObject({ userRole: 'Operator', isActive: true, firstName: null, lastActivityAt: null });
    expect((await env.call('PATCH', `/users/${zoe.id}/role`, { body: 'Admin' })).json.data).toBe(true);
    expect((await env.call('GET', `/users/${zoe.id}`)).json.data.userRole).toBe('Admin');
    expect((await env.call('DELETE', `/users/${zoe.id}`)).json.data).toBe(true);
    expect((await env.call('DELETE', `/users/${zoe.id}`)).json.data).toBe(true);
    expect((await list('IsActive=false')).items.map((u: { email: string }) => u.email)).toEqual(['zoe@example.com']);
    expect((await list('IsActive=true')).totalCount).toBe(2);
    expect((await list('')).totalCount).toBe(3);
    expect(
      (await env.call('POST', '/users', { body: { email: 'zoe@example.com', userRole: 'Operator' } })).json.data,
    ).toBe(true);
    expect((await env.call('GET', `/users/${zoe.id}`)).json.data).toMatchObject({
      isActive: true,
      userRole: 'Operator',
    });
    expect((await list('limit=2&page=2')).items).toHaveLength(1);
    expect((await env.call('GET', '/users/3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f')).status).toBe(404);
  });

  it('lists keys with IncludeApiKeys and KeyFormat None, Masked and Visible', async () => {
    await env.keyFor('KeyManager');
    const list = async (query: string) => {
      const response = await env.call('GET', `/apiKeys?${query}`);
      expect(response.status).toBe(200);
      return response.json.data.map((k: unknown) => apiKeyRecordSchema.parse(k));
    };
    const plain = await list('');
    expect(plain.map((k: { name: string }) => k.name)).toEqual(['demo-admin', 'test-keymanager-1']);
    expect(plain.every((k: object) => !('key' in k))).toBe(true);
    const admin = (await list('IncludeApiKeys=true&KeyFormat=Visible'))[0];
    expect(admin).toMatchObject({ name: 'demo-admin', role: 'Admin', key: env.adminKey });
    const masked = (await list('IncludeApiKeys=true'))[0];
    expect(masked.key).toBe(`••••••••${env.adminKey.slice(-4)}`);
    expect((await list('IncludeApiKeys=true&KeyFormat=None'))[0].key).toBeNull();
    expect((await list('KeyFormat=Visible'))[0]).not.toHaveProperty('key');
    expect((await list('Limit=1&Offset=1')).map((k: { name: string }) => k.name)).toEqual(['test-keymanager-1']);
    expect((await list('Name=ADMIN')).map((k: { name: string }) => k.name)).toEqual(['demo-admin']);
    expect(admin.lastUsedAt).not.toBeNull();
    // Keys are stored hashed: the database holds no key in clear.
    const { rows } = await env.db.query<Record<string, unknown>>('SELECT * FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(env.adminKey);
  });

  it('changes key roles, but only an Admin makes or changes admins', async () => {
    const keyManager = await env.keyFor('KeyManager');
    const target = await env.keyFor('Operator');
    const name = (await env.call('POST', '/apiKeys/validate', { body: { apiKey: target } })).json.data.keyName;
    expect((await env.call('PUT', `/apiKeys/${name}/role`, { key: keyManager, body: 'Service' })).json.data).toBe(true);
    expect((await env.call('POST', '/apiKeys/validate', { body: { apiKey: target } })).json.data.role).toBe('Service');
    expect(codes(await env.call('PUT', `/apiKeys/${name}/role`, { key: keyManager, body: 'Admin' }))).toEqual([
      'ROLE_ESCALATION_FORBIDDEN',
    ]);
    expect(codes(await env.call('PUT', '/apiKeys/demo-admin/role', { key: keyManager, body: 'Operator' }))).toEqual([
      'ROLE_ESCALATION_FORBIDDEN',
    ]);
    expect((await env.call('PUT', `/apiKeys/${name}/role`, { body: 'Admin' })).json.data).toBe(true);
    expect(codes(await env.call('PUT', '/apiKeys/nobody/role', { body: 'Operator' }))).toEqual(['API_KEY_NOT_FOUND']);
  });

  it('validates keys', async () => {
    const operator = await env.keyFor('Operator');
    const validate = async (apiKey: unknown) =>
      (await env.call('POST', '/apiKeys/validate', { key: operator, body: { apiKey } })).json.data;
    expect(await validate(env.adminKey)).toEqual({
      valid: true,
      organizationId: 'demo',
      keyName: 'demo-admin',
      role: 'Admin',
      organizationName: 'Demo organization',
      region: 'NA',
    });
    expect(await validate('pvk_nope')).toEqual({
      valid: false,
      organizationId: null,
      keyName: null,
      role: null,
      organizationName: null,
      region: null,
    });
    expect(await validate(null)).toEqual({
      valid: false,
      organizationId: null,
      keyName: null,
      role: null,
      organizationName: null,
      region: null,
    });
    expect((await env.call('POST', '/apiKeys/validate', { body: {} })).json.data.valid).toBe(false);
  });

  it('tells a client the region of the organization of the key, so the ISM channel rule checked while typing is the right one', async () => {
    const euKey = await env.createOrg('eu-plant', 'EU');
    const result = (
      await env.call('POST', '/apiKeys/validate', { orgId: 'eu-plant', key: euKey, body: { apiKey: euKey } })
    ).json.data;
    expect(result).toMatchObject({
      valid: true,
      organizationId: 'eu-plant',
      region: 'EU',
      organizationName: 'eu-plant',
    });
  });

  it('reports its version with and without a key', async () => {
    const open = await env.call('GET', '/v1/version', { key: null });
    expect(open.json).toEqual({
      data: { apiVersion: 'v1', serviceVersion: expect.any(String) },
      success: true,
      errors: null,
    });
    expect((await env.call('GET', '/version', { key: await env.keyFor('Service') })).json.data).toEqual(open.json.data);
  });

  it('serves an OpenAPI 3.1 document with every operation, from the same schemas', async () => {
    const { ALL_OPERATIONS } = await import('../../server/routes');
    const { openApiPath } = await import('../../server/http/register');
    const response = await env.call('GET', '/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    const doc = JSON.parse(Buffer.from(response.bytes).toString('utf8'));
    expect(doc.openapi).toBe('3.1.0');
    for (const op of ALL_OPERATIONS) {
      const described = doc.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
      expect(described, `${op.method} ${op.path}`).toMatchObject({ operationId: op.id });
    }
    const list = doc.paths['/v1/organizations/{orgId}/configurations'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual([
      'orgId',
      'Search',
      'SortOptions',
      'Limit',
      'Page',
    ]);
    const create = doc.paths['/v1/organizations/{orgId}/configurations'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403']));
    expect(
      doc.paths['/v1/organizations/{orgId}/apiKeys/{keyName}/role'].put.requestBody.content['application/json'].schema
        .enum,
    ).toContain('KeyManager');
    const file = doc.paths['/v1/organizations/{orgId}/devices/{serialNumber}/configuration-file'].get.responses['200'];
    expect(file.headers).toHaveProperty('X-Config-File-Sync-Id');
  });
});
