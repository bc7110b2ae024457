import { beforeAll, describe, expect, it } from 'vitest';
import { backends, codes, register } from './harness';
import { serviceForTests } from './helpers/service-env';

/** A key of one organization reads and changes nothing of another: 403 or 404, never data. */
describe.each(backends())('organizations are isolated on %s', (backend) => {
  const env = serviceForTests(backend);
  let otherKey: string;
  const other = 'other-org';
  let configurationId: string;
  let templateId: string;
  let userId: string;
  let syncId: string;

  beforeAll(async () => {
    otherKey = await env.createOrg(other, 'NA');
    await register(env, ['SRCP000101', 'EPC000101']);
    configurationId = (
      await env.call('POST', '/configurations', {
        body: { name: 'Secret line', timeoutConfiguration: '1000ms', canMode: 'none' },
      })
    ).json.data.id;
    await env.call('POST', `/configurations/${configurationId}/devices`, {
      body: { serialNumber: 'SRCP000101', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
    });
    await env.call('POST', `/configurations/${configurationId}/devices`, {
      body: { serialNumber: 'EPC000101', deviceConfigurationType: 'Receiver', commInterface: 'BLE' },
    });
    syncId = (await env.call('GET', '/devices/SRCP000101/configuration-file')).headers.get('x-config-file-sync-id')!;
    templateId = (
      await env.call('POST', '/ipNetworkTemplates', {
        body: { ipNetworkTemplateName: 'Secret LAN', commInterface: 'Ethernet', netmask: '255.255.255.0' },
      })
    ).json.data.id;
    await env.call('POST', '/users', { body: { email: 'secret@example.com', userRole: 'Admin' } });
    userId = (await env.call('GET', '/users')).json.data.items[0].id;
  });

  it('refuses every operation on the demo organization with a key of another (403), and with no data', async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', '/configurations'],
      ['GET', `/configurations/${configurationId}`],
      ['PATCH', `/configurations/${configurationId}`, { name: 'stolen' }],
      ['DELETE', `/configurations/${configurationId}`],
      ['GET', `/configurations/validate/${configurationId}`],
      ['POST', `/configurations/${configurationId}/devices`, { serialNumber: 'EPC000102' }],
      ['DELETE', `/configurations/${configurationId}/devices/SRCP000101`],
      ['GET', '/devices'],
      ['PATCH', '/devices/SRCP000101?name=stolen'],
      ['GET', '/devices/SRCP000101/configuration-file'],
      ['GET', '/devices/SRCP000101/configuration-file/blank'],
      ['GET', '/devices/SRCP000101/firmware'],
      [
        'POST',
        '/devices/SRCP000101/confirm-apply-configuration',
        { configurationFileSuccessfullyDeployed: true, syncId, applyTimeStamp: '2025-01-01T00:00:00Z' },
      ],
      ['GET', '/ipNetworkTemplates'],
      ['GET', `/ipNetworkTemplates/${templateId}`],
      ['GET', '/users'],
      ['DELETE', `/users/${userId}`],
      ['GET', '/apiKeys?IncludeApiKeys=true&KeyFormat=Visible'],
      ['PUT', '/apiKeys/demo-admin/role', 'Operator'],
      ['POST', '/apiKeys/validate', { apiKey: env.adminKey }],
      ['GET', '/version'],
    ];
    for (const [method, path, body] of paths) {
      const response = await env.call(method, path, { key: otherKey, ...(body === undefined ? {} : { body }) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(codes(response)).toEqual(['ORGANIZATION_FORBIDDEN']);
      expect(response.json.data).toBeNull();
    }
    // An organization that does not exist answers the same as one that does.
    expect(codes(await env.call('GET', '/configurations', { key: otherKey, orgId: 'no-such-org' }))).toEqual([
      'ORGANIZATION_FORBIDDEN',
    ]);
    // Nothing changed.
    expect((await env.call('GET', `/configurations/${configurationId}`)).json.data.name).toBe('Secret line');
    expect((await env.call('GET', '/devices?serial=SRCP000101')).json.data.items[0].name).toBe('Device SRCP000101');
  });

  it("does not find the demo organization's resources through its own path (404)", async () => {
    const own = { key: otherKey, orgId: other };
    expect(codes(await env.call('GET', `/configurations/${configurationId}`, own))).toEqual([
      'CONFIGURATION_NOT_FOUND',
    ]);
    expect((await env.call('DELETE', `/configurations/${configurationId}`, own)).status).toBe(404);
    expect(
      (await env.call('PATCH', `/configurations/${configurationId}?dryRun=true`, { ...own, body: {} })).status,
    ).toBe(404);
    expect((await env.call('GET', `/configurations/validate/${configurationId}`, own)).status).toBe(404);
    expect((await env.call('GET', `/ipNetworkTemplates/${templateId}`, own)).status).toBe(404);
    expect((await env.call('GET', `/users/${userId}`, own)).status).toBe(404);
    expect((await env.call('DELETE', `/users/${userId}`, own)).status).toBe(404);
    expect((await env.call('PATCH', `/users/${userId}/role`, { ...own, body: 'Operator' })).status).toBe(404);
    expect((await env.call('PUT', '/apiKeys/demo-admin/role', { ...own, body: 'Operator' })).status).toBe(404);
    for (const path of [
      '/devices/SRCP000101/configuration-file',
      '/devices/SRCP000101/configuration-file/blank',
      '/devices/SRCP000101/firmware',
      '/devices/SRCP000101/firmware/version',
    ]) {
      expect(codes(await env.call('GET', path, own)), path).toEqual(['DEVICE_NOT_FOUND']);
    }
    expect((await env.call('PATCH', '/devices/SRCP000101?name=x', own)).status).toBe(404);
    const confirm = await env.call('POST', '/devices/SRCP000101/confirm-apply-configuration', {
      ...own,
      body: { configurationFileSuccessfullyDeployed: true, syncId, applyTimeStamp: '2025-01-01T00:00:00Z' },
    });
    expect(confirm.status).toBe(404);
    // Lists are empty, not the demo organization's.
    expect((await env.call('GET', '/configurations', own)).json.data.totalCount).toBe(0);
    expect((await env.call('GET', '/devices', own)).json.data.totalCount).toBe(0);
    expect((await env.call('GET', '/ipNetworkTemplates', own)).json.data).toEqual([]);
    expect((await env.call('GET', '/users', own)).json.data.totalCount).toBe(0);
    expect((await env.call('GET', '/apiKeys', own)).json.data.map((k: { name: string }) => k.name)).toEqual(['admin']);
    // A key of the demo organization validates as not valid here.
    expect((await env.call('POST', '/apiKeys/validate', { ...own, body: { apiKey: env.adminKey } })).json.data).toEqual(
      { valid: false, organizationId: null, keyName: null, role: null, organizationName: null, region: null },
    );
  });

  it("cannot claim or configure the demo organization's devices", async () => {
    const own = { key: otherKey, orgId: other };
    const claim = await env.call('POST', '/devices?serialNumber=SRCP000101&name=mine', own);
    expect(claim.status).toBe(409);
    expect(codes(claim)).toEqual(['DEVICE_REGISTERED_ELSEWHERE']);
    expect(JSON.stringify(claim.json)).not.toContain('demo');
    const mine = (await env.call('POST', '/configurations', { ...own, body: { name: 'mine' } })).json.data.id;
    const add = await env.call('POST', `/configurations/${mine}/devices`, {
      ...own,
      body: { serialNumber: 'SRCP000101' },
    });
    expect(add.status).toBe(404);
    expect(codes(add)).toEqual(['DEVICE_NOT_REGISTERED']);
    // A device registered in the other organization is its own.
    expect((await env.call('POST', '/devices?serialNumber=EPC000104&name=theirs', own)).status).toBe(201);
    expect((await env.call('GET', '/devices?serial=EPC000104')).json.data.totalCount).toBe(0);
  });
});
