import { beforeAll, describe, expect, it } from 'vitest';
import { backends, codes } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Least privilege among keys, tried the way a key holder would: over HTTP with its own key. No key
 * may read, give or change a key that ranks above its own (domain/role-matrix.ts ranksAtLeast), so
 * nothing a KeyManager can read or do makes it an Admin.
 */
describe.each(backends())('least privilege of keys on %s', (backend) => {
  const env = serviceForTests(backend);
  let keyManager: string;
  let keyManagerName: string;
  let operator: string;
  let operatorName: string;
  let backupAdmin: string;

  const nameOf = async (key: string): Promise<string> =>
    (await env.call('POST', '/apiKeys/validate', { body: { apiKey: key } })).json.data.keyName;
  const listAs = async (key: string, query: string) => {
    const response = await env.call('GET', `/apiKeys?${query}`, { key });
    expect(response.status, JSON.stringify(response.json.errors)).toBe(200);
    return response;
  };

  beforeAll(async () => {
    keyManager = await env.keyFor('KeyManager');
    operator = await env.keyFor('Operator');
    keyManagerName = await nameOf(keyManager);
    operatorName = await nameOf(operator);
    const { issueKey } = await import('../../server');
    backupAdmin = await issueKey(env.db, { orgId: env.orgId, name: 'backup-admin', role: 'Admin' });
  });

  it('a KeyManager listing whole keys never gets an Admin key, whole or masked', async () => {
    for (const format of ['Visible', 'Masked']) {
      const response = await listAs(keyManager, `IncludeApiKeys=true&KeyFormat=${format}`);
      const admins = response.json.data.filter((k: { role: string }) => k.role === 'Admin');
      expect(admins.map((k: { name: string }) => k.name).sort()).toEqual(['backup-admin', 'demo-admin']);
      for (const admin of admins) expect(admin.key, `${format} ${admin.name}`).toBeNull();
      const text = Buffer.from(response.bytes).toString('utf8');
      for (const secret of [env.adminKey, backupAdmin]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(`••••••••${secret.slice(-4)}`);
      }
    }
  });

  it('no key value a KeyManager can read opens an Admin-only operation', async () => {
    const visible = (await listAs(keyManager, 'IncludeApiKeys=true&KeyFormat=Visible')).json.data
      .map((k: { key?: string | null }) => k.key)
      .filter((key: unknown): key is string => typeof key === 'string');
    expect(visible).toContain(keyManager);
    for (const key of [keyManager, ...visible]) {
      const users = await env.call('GET', '/users', { key });
      expect(users.status).toBe(403);
      expect(codes(users)).toEqual(['ROLE_FORBIDDEN']);
    }
  });

  it('a KeyManager can give no key, its own included, the Admin role', async () => {
    for (const target of [keyManagerName, operatorName]) {
      const response = await env.call('PUT', `/apiKeys/${target}/role`, { key: keyManager, body: 'Admin' });
      expect(response.status).toBe(403);
      expect(codes(response)).toEqual(['ROLE_ESCALATION_FORBIDDEN']);
    }
    expect((await env.call('GET', '/users', { key: keyManager })).status).toBe(403);
    expect((await env.call('POST', '/apiKeys/validate', { body: { apiKey: operator } })).json.data.role).toBe(
      'Operator',
    );
  });

  it('a KeyManager cannot demote an Admin key (and lock the admins out)', async () => {
    for (const admin of ['demo-admin', 'backup-admin']) {
      const response = await env.call('PUT', `/apiKeys/${admin}/role`, { key: keyManager, body: 'Operator' });
      expect(codes(response)).toEqual(['ROLE_ESCALATION_FORBIDDEN']);
    }
    expect((await env.call('GET', '/users', { key: env.adminKey })).status).toBe(200);
    expect((await env.call('GET', '/users', { key: backupAdmin })).status).toBe(200);
  });

  it('still manages the keys that rank below it', async () => {
    const listed = (await listAs(keyManager, `IncludeApiKeys=true&KeyFormat=Visible&Name=${operatorName}`)).json.data;
    expect(listed).toEqual([expect.objectContaining({ name: operatorName, role: 'Operator', key: operator })]);
    expect(
      (await env.call('PUT', `/apiKeys/${operatorName}/role`, { key: keyManager, body: 'Service' })).json.data,
    ).toBe(true);
    expect(
      (await env.call('PUT', `/apiKeys/${operatorName}/role`, { key: keyManager, body: 'Operator' })).json.data,
    ).toBe(true);
  });

  it('an Admin sees and changes every key', async () => {
    const listed = (await listAs(env.adminKey, 'IncludeApiKeys=true&KeyFormat=Visible')).json.data;
    expect(listed.find((k: { name: string }) => k.name === 'backup-admin').key).toBe(backupAdmin);
    expect((await env.call('PUT', '/apiKeys/backup-admin/role', { body: 'KeyManager' })).json.data).toBe(true);
    expect((await env.call('PUT', '/apiKeys/backup-admin/role', { body: 'Admin' })).json.data).toBe(true);
  });

  it('keys below KeyManager list no keys at all', async () => {
    for (const role of ['Operator', 'Service', 'ConfigManager', 'DeviceManager'] as const) {
      const response = await env.call('GET', '/apiKeys?IncludeApiKeys=true&KeyFormat=Visible', {
        key: await env.keyFor(role),
      });
      expect(response.status).toBe(403);
      expect(codes(response)).toEqual(['ROLE_FORBIDDEN']);
    }
  });
});
