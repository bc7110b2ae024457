import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ROLES, type ApiKeyRole } from '../../domain';
import { ROLE_MATRIX, type OperationId } from '../../server';
import { upsertManufacturingRecords } from '../../server';
import { ALL_OPERATIONS } from '../../server/routes';
import { openApiPath } from '../../server/http/register';
import { srcpToEpcOverBle } from '../fixtures/typical-flows';
import { fixtureWorkstationEnrolment, signedLedgerEntry } from '../fixtures/ledger';
import { enrolWorkstationKey } from '../../server/store/workstation-keys';
import { buildFirmwareBundle } from '../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../domain/files/firmware-image';
import { releaseKeyFromPem } from '../../domain/files/firmware-release-key';
import { importFirmwareBundle } from '../../server/store/firmware';
import { trustReleaseKey } from '../../server/store/release-keys';
import { testReleaseKey } from '../fixtures/release-key';
import { ledgerSignerKeyOf } from '../../domain/ledger';
import { signEnrolmentProof } from '../../domain/workstation-keys';
import { manifestFor } from '../fixtures/work-package-manifest';

/**
 * Two NSCP releases whose images share most bytes (the demo's are unrelated random bytes, which
 * get no patch), imported once per environment: the patch from 1.2.0 to 1.3.0 is then served.
 */
const patchableReleases = new WeakMap<TestEnv, Promise<void>>();
function patchableNscpReleases(env: TestEnv): Promise<void> {
  let ready = patchableReleases.get(env);
  if (ready === undefined) {
    ready = (async () => {
      await trustReleaseKey(env.db, releaseKeyFromPem(testReleaseKey.publicKeyPem, 'roles test release key'));
      const base = makeFirmwareImage('NSCP', '1.2.0', 4096);
      const next = makeFirmwareImage('NSCP', '1.3.0', 4096);
      next.set(base.subarray(64), 64);
      next[100] = next[100]! ^ 1;
      for (const [version, image] of [
        ['1.2.0', base],
        ['1.3.0', next],
      ] as const) {
        await importFirmwareBundle(
          env.db,
          buildFirmwareBundle({ deviceType: 'NSCP', version, image, releaseKeyPem: testReleaseKey.privateKeyPem }),
          { deviceType: 'NSCP', version },
        );
      }
    })();
    patchableReleases.set(env, ready);
  }
  return ready;
}
import { backends, codes, register, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Every operation with a key of every role: a role the matrix allows gets a 2xx, any other a 403
 * ROLE_FORBIDDEN. Each request is built so that it succeeds for an allowed role (fresh resources
 * for the ones that delete or claim something).
 */
interface Call {
  method: string;
  /** Path under /v1/organizations/{orgId}. */
  path: string;
  body?: unknown;
  /** Undo what the request's setup made, whether or not the request ran. */
  cleanup?: () => Promise<unknown>;
}

interface Fixtures {
  configurationId: string;
  completeDevice: string;
  blankSyncId: string;
  templateId: string;
  userId: string;
  freeDevice: string;
}

let serialCounter = 0;

/** A workstation key made now, enrolled for `workstation`. */
function freshEnrolment(orgId: string, workstation: string) {
  const privateKeyPem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = ledgerSignerKeyOf(privateKeyPem);
  return { workstation, publicKey, proof: signEnrolmentProof({ orgId, workstation, publicKey }, privateKeyPem) };
}
let keyCounter = 0;
let emailCounter = 0;

const REQUESTS: Record<OperationId, (env: TestEnv, f: Fixtures) => Promise<Call>> = {
  'configurations.list': async () => ({ method: 'GET', path: '/configurations' }),
  'configurations.create': async () => ({ method: 'POST', path: '/configurations', body: { name: 'role test' } }),
  'configurations.get': async (_env, f) => ({ method: 'GET', path: `/configurations/${f.configurationId}` }),
  'configurations.delete': async (env) => {
    const created = await env.call('POST', '/configurations', { body: { name: 'to delete' } });
    return { method: 'DELETE', path: `/configurations/${created.json.data.id}` };
  },
  'configurations.update': async (_env, f) => ({
    method: 'PATCH',
    path: `/configurations/${f.configurationId}`,
    body: { timeoutConfiguration: '500ms' },
  }),
  'configurations.status': async (_env, f) => ({
    method: 'GET',
    path: `/configurations/validate/${f.configurationId}`,
  }),
  'configurations.addDevice': async (_env, f) => ({
    method: 'POST',
    path: `/configurations/${f.configurationId}/devices?dryRun=true`,
    body: { serialNumber: f.freeDevice, deviceConfigurationType: 'Sender', commInterface: 'BLE' },
  }),
  'configurations.removeDevice': async (env, f) => {
    const created = await env.call('POST', '/configurations', { body: { name: 'to remove from' } });
    const id = created.json.data.id;
    const added = await env.call('POST', `/configurations/${id}/devices`, { body: { serialNumber: f.freeDevice } });
    expect(added.status).toBe(201);
    return {
      method: 'DELETE',
      path: `/configurations/${id}/devices/${f.freeDevice}`,
      cleanup: () => env.call('DELETE', `/configurations/${id}`),
    };
  },
  'configurations.updateDevice': async (_env, f) => ({
    method: 'PATCH',
    path: `/configurations/${f.configurationId}/devices/SRCP000101?dryRun=true`,
    body: { commInterface: 'BLE' },
  }),
  'devices.list': async () => ({ method: 'GET', path: '/devices?configurableOnly=true' }),
  'devices.register': async (env) => {
    const serial = `ROLE${String(++serialCounter).padStart(4, '0')}`;
    await upsertManufacturingRecords(env.db, [{ serialNumber: serial, deviceType: 'EPC', model: 'EPC-300' }]);
    return { method: 'POST', path: `/devices?serialNumber=${serial}&name=Role%20test` };
  },
  'devices.update': async () => ({ method: 'PATCH', path: '/devices/SRCP000101?name=Remote%201' }),
  'devices.release': async (env) => {
    const serial = `ROLE${String(++serialCounter).padStart(4, '0')}`;
    await upsertManufacturingRecords(env.db, [{ serialNumber: serial, deviceType: 'EPC', model: 'EPC-300' }]);
    await register(env, [serial]);
    return { method: 'DELETE', path: `/devices/${serial}` };
  },
  'devices.firmware': async () => ({ method: 'GET', path: '/devices/SRCP000101/firmware' }),
  'devices.firmwareVersion': async () => ({ method: 'GET', path: '/devices/SRCP000101/firmware/version' }),
  'devices.typeFirmware': async () => ({ method: 'GET', path: '/devices/types/NSCP/firmware' }),
  'devices.typeFirmwareVersion': async () => ({ method: 'GET', path: '/devices/types/NSCP/firmware/version' }),
  'devices.typeFirmwarePatches': async () => ({ method: 'GET', path: '/devices/types/NSCP/firmware/patches' }),
  'devices.typeFirmwarePatch': async (env) => {
    await patchableNscpReleases(env);
    return { method: 'GET', path: '/devices/types/NSCP/firmware/patches/1.2.0' };
  },
  'devices.configurationFile': async (_env, f) => ({
    method: 'GET',
    path: `/devices/${f.completeDevice}/configuration-file`,
  }),
  'devices.blankConfigurationFile': async () => ({
    method: 'GET',
    path: '/devices/WESP000101/configuration-file/blank',
  }),
  'devices.syncId': async (_env, f) => ({ method: 'GET', path: `/devices/WESP000101/sync-ids/${f.blankSyncId}` }),
  'devices.confirmFirmware': async () => ({
    method: 'POST',
    path: '/devices/SRCP000101/confirm-apply-firmware',
    body: {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.1.0',
      error: null,
      applyTimeStamp: '2025-05-01T10:00:00Z',
    },
  }),
  'devices.confirmConfiguration': async (_env, f) => ({
    method: 'POST',
    path: '/devices/WESP000101/confirm-apply-configuration',
    body: {
      configurationFileSuccessfullyDeployed: true,
      syncId: f.blankSyncId,
      error: null,
      applyTimeStamp: '2025-05-01T10:00:00Z',
    },
  }),
  'ledger.append': async (env) => {
    await enrolWorkstationKey(env.db, env.orgId, {
      ...fixtureWorkstationEnrolment(env.orgId),
      enrolledBy: 'roles test',
      rotate: false,
    });
    return { method: 'POST', path: '/ledger/entries', body: { entries: [signedLedgerEntry()] } };
  },
  'workstations.enrol': async (env) => ({
    method: 'POST',
    path: '/workstations/keys',
    body: freshEnrolment(env.orgId, `roles-enrol-${++serialCounter}`),
  }),
  'workstations.revoke': async (env) => {
    const workstation = `roles-revoke-${++serialCounter}`;
    const enrolment = freshEnrolment(env.orgId, workstation);
    await enrolWorkstationKey(env.db, env.orgId, { ...enrolment, enrolledBy: 'roles test', rotate: false });
    return { method: 'POST', path: `/workstations/${workstation}/revoke`, body: { reason: 'roles test' } };
  },
  'workstations.keys': async () => ({ method: 'GET', path: '/workstations/keys' }),
  'workstations.grant': async () => ({
    method: 'POST',
    path: '/workstations/grants',
    body: {
      packageId: '00000000-0000-4000-8000-000000000001',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    },
  }),
  'workPackages.sign': async (env) => ({
    method: 'POST',
    path: '/work-packages/signatures',
    body: { manifest: await manifestFor(env) },
  }),
  'ledger.list': async () => ({ method: 'GET', path: '/ledger/entries' }),
  'ipNetworkTemplates.list': async () => ({ method: 'GET', path: '/ipNetworkTemplates' }),
  'ipNetworkTemplates.create': async () => ({
    method: 'POST',
    path: '/ipNetworkTemplates',
    body: { ipNetworkTemplateName: 'Plant LAN', commInterface: 'Ethernet', netmask: '255.255.255.0' },
  }),
  'ipNetworkTemplates.get': async (_env, f) => ({ method: 'GET', path: `/ipNetworkTemplates/${f.templateId}` }),
  'users.list': async () => ({ method: 'GET', path: '/users' }),
  'users.register': async () => ({
    method: 'POST',
    path: '/users',
    body: { email: `role${++emailCounter}@example.com`, userRole: 'Operator' },
  }),
  'users.get': async (_env, f) => ({ method: 'GET', path: `/users/${f.userId}` }),
  'users.delete': async (_env, f) => ({ method: 'DELETE', path: `/users/${f.userId}` }),
  'users.updateRole': async (_env, f) => ({ method: 'PATCH', path: `/users/${f.userId}/role`, body: 'ConfigManager' }),
  'apiKeys.list': async () => ({ method: 'GET', path: '/apiKeys?IncludeApiKeys=true&KeyFormat=Masked' }),
  'apiKeys.updateRole': async () => ({ method: 'PUT', path: '/apiKeys/role-target/role', body: 'Operator' }),
  'apiKeys.validate': async () => ({ method: 'POST', path: '/apiKeys/validate', body: { apiKey: 'pvk_not-a-key' } }),
  'apiKeys.create': async () => ({
    method: 'POST',
    path: '/apiKeys',
    body: { name: `made-${++keyCounter}`, role: 'Operator' },
  }),
  'apiKeys.revoke': async (env) => {
    const name = `revoked-${++keyCounter}`;
    await import('../../server').then(({ issueKey }) => issueKey(env.db, { orgId: env.orgId, name, role: 'Operator' }));
    return { method: 'DELETE', path: `/apiKeys/${name}` };
  },
  'apiKeys.rotate': async () => ({
    method: 'POST',
    path: '/apiKeys/role-target/rotate',
    body: { oldKeyValidForSeconds: 0 },
  }),
  'version.organization': async () => ({ method: 'GET', path: '/version' }),
};

describe.each(backends())('role matrix on %s', (backend) => {
  const env = serviceForTests(backend);
  let fixtures: Fixtures;
  const keys = new Map<ApiKeyRole, string>();

  beforeAll(async () => {
    for (const role of API_KEY_ROLES) keys.set(role, await env.keyFor(role));
    await env.keyFor('Operator'); // the key whose role the apiKeys.updateRole calls set
    await import('../../server').then(({ issueKey }) =>
      issueKey(env.db, { orgId: env.orgId, name: 'role-target', role: 'Operator' }),
    );
    await register(env, ['SRCP000101', 'EPC000101', 'WESP000101', 'WESP000104']);
    const created = await env.call('POST', '/configurations', { body: srcpToEpcOverBle.configuration });
    const configurationId = created.json.data.id;
    for (const device of srcpToEpcOverBle.devices) {
      const added = await env.call('POST', `/configurations/${configurationId}/devices`, { body: device.payload });
      expect(added.status).toBe(201);
    }
    const blank = await env.call('GET', '/devices/WESP000101/configuration-file/blank');
    const template = await env.call('POST', '/ipNetworkTemplates', {
      body: { ipNetworkTemplateName: 'Fixture', commInterface: 'Ethernet', netmask: '255.255.0.0' },
    });
    await env.call('POST', '/users', { body: { email: 'fixture@example.com', userRole: 'Operator' } });
    const users = await env.call('GET', '/users?Search=fixture');
    fixtures = {
      configurationId,
      completeDevice: 'SRCP000101',
      blankSyncId: blank.headers.get('x-config-file-sync-id')!,
      templateId: template.json.data.id,
      userId: users.json.data.items[0].id,
      freeDevice: 'WESP000104',
    };
  });

  it('lists every operation of the service exactly once, at the method and path of its route', () => {
    const orgRoutes = ALL_OPERATIONS.filter((op) => !op.id.startsWith('public.'));
    expect(new Set(orgRoutes.map((op) => op.id))).toEqual(new Set(Object.keys(ROLE_MATRIX)));
    expect(new Set(Object.keys(REQUESTS))).toEqual(new Set(Object.keys(ROLE_MATRIX)));
    expect(orgRoutes).toHaveLength(Object.keys(ROLE_MATRIX).length);
  });

  for (const operation of Object.keys(ROLE_MATRIX) as OperationId[]) {
    it(`${operation}: ${API_KEY_ROLES.map((r) => `${r} ${(ROLE_MATRIX[operation] as readonly string[]).includes(r) ? 'allowed' : '403'}`).join(', ')}`, async () => {
      const route = ALL_OPERATIONS.find((op) => op.id === operation)!;
      for (const role of API_KEY_ROLES) {
        const call = await REQUESTS[operation](env, fixtures);
        // The request really is the operation under test.
        expect(call.method).toBe(route.method);
        expect(`/v1/organizations/{orgId}${call.path.split('?')[0]!.replace(/\/[^/]+/g, '/x')}`.split('/').length).toBe(
          openApiPath(route.path).split('/').length,
        );
        const response = await env.call(call.method, call.path, {
          key: keys.get(role)!,
          ...(call.body === undefined ? {} : { body: call.body }),
        });
        await call.cleanup?.();
        const allowed = (ROLE_MATRIX[operation] as readonly ApiKeyRole[]).includes(role);
        if (allowed) {
          expect(
            response.status,
            `${role} ${call.method} ${call.path}: ${JSON.stringify(response.json?.errors)}`,
          ).toBeGreaterThanOrEqual(200);
          expect(
            response.status,
            `${role} ${call.method} ${call.path}: ${JSON.stringify(response.json?.errors)}`,
          ).toBeLessThan(300);
        } else {
          expect(response.status, `${role} ${call.method} ${call.path}`).toBe(403);
          expect(codes(response)).toEqual(['ROLE_FORBIDDEN']);
        }
      }
    });
  }

  it('answers 401 without a key, with a malformed header and with an unknown key, before anything else', async () => {
    const none = await env.call('GET', '/configurations', { key: null });
    expect(none.status).toBe(401);
    expect(codes(none)).toEqual(['API_KEY_MISSING']);
    const malformed = await env.call('GET', '/configurations', { key: null, headers: { authorization: 'Basic abc' } });
    expect(codes(malformed)).toEqual(['AUTHORIZATION_MALFORMED']);
    const unknown = await env.call('POST', '/configurations', { key: 'pvk_unknown', rawBody: '{not json' });
    expect(unknown.status).toBe(401);
    expect(codes(unknown)).toEqual(['API_KEY_INVALID']);
  });

  it('checks the role before the input: a forbidden role learns nothing about its payload', async () => {
    const response = await env.call('POST', '/configurations', { key: keys.get('Operator')!, body: { name: 42 } });
    expect(response.status).toBe(403);
  });

  it('a role change takes effect at once', async () => {
    const key = await import('../../server').then(({ issueKey }) =>
      issueKey(env.db, { orgId: env.orgId, name: 'changing', role: 'Operator' }),
    );
    expect((await env.call('POST', '/configurations', { key, body: { name: 'x' } })).status).toBe(403);
    expect((await env.call('PUT', '/apiKeys/changing/role', { body: 'ConfigManager' })).status).toBe(200);
    expect((await env.call('POST', '/configurations', { key, body: { name: 'x' } })).status).toBe(201);
  });
});
