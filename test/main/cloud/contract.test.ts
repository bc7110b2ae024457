import { createPublicKey, verify } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { readFirmwareBundle } from '../../../domain/files/firmware-bundle';
import { AuthError, ServiceError, collect, type FetchFn, type ServiceClient } from '../../../main/cloud';
import { ALL_OPERATIONS } from '../../../server/routes';
import { srcpToEpcOverIsm } from '../../fixtures/typical-flows';
import { fixtureWorkstationEnrolment, signedLedgerEntry } from '../../fixtures/ledger';
import { verifyWorkstationKeyList } from '../../../domain/workstation-key-list';
import { startTestService, type TestService } from './service-harness';
import { manifestText } from '../../fixtures/work-package-manifest';
import { organizationSignedBytes } from '../../../domain/files/work-package-container';

/**
 * Every operation of the interface, through the client, against the real service over HTTP. The
 * tests run in order and build on each other (register, configure, download, confirm), like a
 * technician's session.
 */

let service: TestService;
let client: ServiceClient;
let dir: string;
/** Every request the client made, to prove at the end that no operation was left untested. */
const called: Array<{ method: string; path: string }> = [];
const recordingFetch: FetchFn = (input, init) => {
  called.push({ method: init.method ?? 'GET', path: new URL(input).pathname });
  return fetch(input, init);
};

beforeAll(async () => {
  service = await startTestService();
  client = service.client({ fetch: recordingFetch });
  dir = await mkdtemp(join(tmpdir(), 'contract-'));
});
afterAll(async () => {
  await service?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function expectServiceError(promise: Promise<unknown>, status: number): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect((error as ServiceError).httpStatus).toBe(status);
  return error as ServiceError;
}

describe('version and authentication', () => {
  it('GET /v1/version, GET <P>/version and the signing key', async () => {
    expect(await client.version()).toEqual({ apiVersion: 'v1', serviceVersion: expect.any(String) });
    expect((await client.organizationVersion()).apiVersion).toBe('v1');
    const root = await client.signingKey();
    expect(root.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    // The organization's own key, certified by that root key.
    expect(await client.organizationSigningKey()).toMatchObject({
      orgId: 'demo',
      algorithm: 'ES256',
      rootKeyId: root.keyId,
    });
    // The seed's demo firmware is signed by a release key the service trusts, and lists.
    expect((await client.firmwareReleaseKeys()).map((key) => key.algorithm)).toEqual(['Ed25519']);
  });

  it('an unknown key is an AuthError (401) with the service error entries', async () => {
    const error = await service
      .client({ apiKey: 'not-a-key' })
      .devices.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).httpStatus).toBe(401);
    expect((error as AuthError).errors[0]?.code).toMatch(/^[A-Z_]+$/);
  });

  it('a role that may not call an operation is an AuthError (403)', async () => {
    const operatorKey = await service.issueKey('contract-operator', 'Operator');
    const error = await service
      .client({ apiKey: operatorKey })
      .configurations.create({ name: 'nope' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).httpStatus).toBe(403);
  });
});

describe('API keys', () => {
  it('validate: a valid key with its name and role; an invalid one as not valid', async () => {
    expect(await client.apiKeys.validate(service.adminKey)).toEqual({
      valid: true,
      organizationId: service.orgId,
      keyName: 'demo-admin',
      role: 'Admin',
      organizationName: 'Demo organization',
      region: 'NA',
    });
    expect((await client.apiKeys.validate('bogus')).valid).toBe(false);
    expect((await client.apiKeys.validate(null)).valid).toBe(false);
  });

  it('list with Limit/Offset/IncludeApiKeys/KeyFormat, walk every page, and set a role', async () => {
    await service.issueKey('contract-line', 'Operator');
    const plain = await client.apiKeys.list({ Limit: 30 });
    expect(plain.map((k) => k.name)).toContain('contract-line');
    const visible = await client.apiKeys.list({ IncludeApiKeys: true, KeyFormat: 'Visible', Limit: 30 });
    expect(visible.find((k) => k.name === 'demo-admin')?.key).toBe(service.adminKey);
    const masked = await client.apiKeys.list({ IncludeApiKeys: true, KeyFormat: 'Masked', Limit: 30 });
    expect(masked.find((k) => k.name === 'demo-admin')?.key).not.toBe(service.adminKey);
    const second = await client.apiKeys.list({ Limit: 1, Offset: 1 });
    expect(second).toHaveLength(1);
    const all = await collect(client.apiKeys.listAll({}, { pageSize: 1 }));
    expect(all.map((k) => k.name).sort()).toEqual(plain.map((k) => k.name).sort());

    expect(await client.apiKeys.setRole('contract-line', 'Service')).toBe(true);
    expect((await client.apiKeys.list({ Limit: 30 })).find((k) => k.name === 'contract-line')?.role).toBe('Service');
    await expectServiceError(client.apiKeys.setRole('no-such-key', 'Service'), 404);
  });

  it("issue, rotate and revoke a key (the service's additions)", async () => {
    const made = await client.apiKeys.create({ name: 'contract-made', role: 'Operator' });
    expect(made).toMatchObject({ name: 'contract-made', role: 'Operator', key: expect.stringMatching(/^pvk_/) });
    await expectServiceError(client.apiKeys.create({ name: 'contract-made', role: 'Operator' }), 409);
    const rotated = await client.apiKeys.rotate('contract-made', 0);
    expect(rotated.key).not.toBe(made.key);
    expect((await client.apiKeys.validate(made.key)).valid).toBe(false);
    expect((await client.apiKeys.validate(rotated.key)).valid).toBe(true);
    expect(await client.apiKeys.revoke('contract-made')).toBe(true);
    expect((await client.apiKeys.validate(rotated.key)).valid).toBe(false);
    await expectServiceError(client.apiKeys.revoke('contract-made'), 404);
  });
});

describe('devices', () => {
  it('register with and without an image, list, search, serial, configurableOnly, and page through', async () => {
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const epc = await client.devices.register({
      serialNumber: 'EPC000101',
      name: 'Press 4 receiver',
      deviceImage: image,
    });
    expect(epc).toMatchObject({
      serialNumber: 'EPC000101',
      name: 'Press 4 receiver',
      deviceType: 'EPC',
      hasImage: true,
    });
    for (const serialNumber of ['SRCP000101', 'EPC000102', 'NSCP000101', 'WESP000101']) {
      await client.devices.register({ serialNumber, name: `Unit ${serialNumber}` });
    }
    const page = await client.devices.list({ limit: 2, page: 1 });
    expect(page.items).toHaveLength(2);
    expect(page.totalCount).toBe(5);
    const all = await collect(client.devices.listAll({}, { pageSize: 2 }));
    expect(all.map((d) => d.serialNumber).sort()).toEqual([
      'EPC000101',
      'EPC000102',
      'NSCP000101',
      'SRCP000101',
      'WESP000101',
    ]);
    expect((await client.devices.list({ serial: 'NSCP000101' })).items.map((d) => d.serialNumber)).toEqual([
      'NSCP000101',
    ]);
    expect((await client.devices.list({ search: 'Press 4' })).items.map((d) => d.serialNumber)).toEqual(['EPC000101']);
    expect((await client.devices.list({ configurableOnly: true })).totalCount).toBe(5);
    await expectServiceError(client.devices.list({ search: 'a', serial: 'b' }), 400);
  });

  it('registering a serial number twice or an unknown one is refused with the service codes', async () => {
    const twice = await client.devices.register({ serialNumber: 'EPC000101', name: 'again' }).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(ServiceError);
    expect([400, 404, 409]).toContain((twice as ServiceError).httpStatus);
    const unknown = await client.devices.register({ serialNumber: 'NOPE000000', name: 'x' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ServiceError);
    expect((unknown as ServiceError).errors.length).toBeGreaterThan(0);
  });

  it('rename, replace the image, delete the image', async () => {
    expect((await client.devices.update('EPC000102', { name: 'Press 5 receiver' })).name).toBe('Press 5 receiver');
    expect((await client.devices.update('EPC000102', { deviceImage: 'data:image/png;base64,AAAA' })).hasImage).toBe(
      true,
    );
    expect((await client.devices.update('EPC000102', { deleteImage: true })).hasImage).toBe(false);
  });

  it('release a device, which another organization may then register', async () => {
    await client.devices.register({ serialNumber: 'WESP000104', name: 'Sold on' });
    expect(await client.devices.release('WESP000104')).toEqual({ serialNumber: 'WESP000104', released: true });
    expect((await client.devices.list({ serial: 'WESP000104' })).totalCount).toBe(0);
  });

  it('latest firmware version by serial number and by type', async () => {
    expect(await client.devices.firmwareVersion('EPC000101')).toEqual({ deviceType: 'EPC', version: '1.1.0' });
    expect(await client.devices.firmwareVersionByType('NSCP')).toEqual({ deviceType: 'NSCP', version: '1.1.0' });
  });

  it('firmware bundle by serial number and by type, streamed to disk and verifiable', async () => {
    const bySerial = await client.devices.downloadFirmware('EPC000101', { path: join(dir, 'epc.zip') });
    const bundle = readFirmwareBundle(await readFile(bySerial.path), { deviceType: 'EPC', version: '1.1.0' });
    expect(bundle.bundleSha256).toBe(bySerial.sha256);
    const byType = await client.devices.downloadFirmwareByType('SRCP', { path: join(dir, 'srcp.zip') });
    expect(readFirmwareBundle(await readFile(byType.path)).deviceType).toBe('SRCP');
    const inMemory = await client.devices.fetchFirmwareByType('WESP');
    expect(readFirmwareBundle(inMemory.bytes).version).toBe('1.1.0');
    expect((await client.devices.fetchFirmware('EPC000101')).bytes.length).toBe(bySerial.size);
    expect((await readdir(dir)).sort()).toEqual(['epc.zip', 'srcp.zip']);
  });

  it('firmware patches (ours): the demo releases share no content, so none is offered and the patch is a 404', async () => {
    expect(await client.firmwarePatches.list('WESP')).toEqual([]);
    const missing = await expectServiceError(client.firmwarePatches.fetch('WESP', '1.0.0'), 404);
    expect(missing.errors.map((e) => e.code)).toEqual(['FIRMWARE_PATCH_NOT_AVAILABLE']);
  });
});

describe('IP network templates', () => {
  it('create, get, list with filters, walk every page', async () => {
    const ethernet = await client.ipNetworkTemplates.create({
      ipNetworkTemplateName: 'Plant LAN',
      commInterface: 'Ethernet',
      netmask: '255.255.255.0',
      gatewayIpAddress: '192.168.3.1',
      nameservers: ['192.168.3.1'],
    });
    expect(ethernet).toMatchObject({
      ipNetworkTemplateName: 'Plant LAN',
      commInterface: 'Ethernet',
      passwordSet: false,
    });
    const wifi = await client.ipNetworkTemplates.create({
      ipNetworkTemplateName: 'Yard wifi',
      commInterface: 'Wifi',
      netmask: '255.255.0.0',
      ssid: 'yard',
      password: 'secret-pass',
    });
    expect(wifi.passwordSet).toBe(true);
    expect(await client.ipNetworkTemplates.get(ethernet.id)).toEqual(ethernet);
    expect((await client.ipNetworkTemplates.list({ typeFilter: 'Wifi' })).map((t) => t.id)).toEqual([wifi.id]);
    expect((await client.ipNetworkTemplates.list({ nameFilter: 'plant' })).map((t) => t.id)).toEqual([ethernet.id]);
    const sorted = await client.ipNetworkTemplates.list({ sortBy: 'Name', sortDirection: 'Descending' });
    expect(sorted.map((t) => t.ipNetworkTemplateName)).toEqual(['Yard wifi', 'Plant LAN']);
    expect((await collect(client.ipNetworkTemplates.listAll({}, { pageSize: 1 }))).length).toBe(2);
    const invalid = await expectServiceError(
      client.ipNetworkTemplates.create({ ipNetworkTemplateName: '', commInterface: 'Ethernet', netmask: '' }),
      400,
    );
    expect(invalid.errors.map((e) => e.field)).toContain('ipNetworkTemplateName');
  });
});

describe('configurations and their devices, files and confirmations', () => {
  let configurationId: string;
  let syncId: string;

  it('create, get, list (Search, SortOptions, Limit, Page), walk every page', async () => {
    const created = await client.configurations.create(srcpToEpcOverIsm.configuration);
    configurationId = created.id;
    expect(created).toMatchObject({
      name: srcpToEpcOverIsm.configuration.name,
      ismTxChannel: 5,
      timeoutConfiguration: '1000ms',
      devices: [],
    });
    expect(await client.configurations.get(configurationId)).toEqual(created);
    await client.configurations.create({ name: 'Spare line' });
    const found = await client.configurations.list({
      Search: 'Loader',
      SortOptions: 'ConfigNameASC',
      Limit: 30,
      Page: 1,
    });
    expect(found.items.map((c) => c.id)).toEqual([configurationId]);
    const byName = await client.configurations.list({ SortOptions: 'ConfigNameDESC' });
    expect(byName.items.map((c) => c.name)).toEqual(['Spare line', srcpToEpcOverIsm.configuration.name]);
    expect((await collect(client.configurations.listAll({}, { pageSize: 1 }))).length).toBe(2);
  });

  it('invalid input comes back as a 400 with the field of each violation', async () => {
    const error = await expectServiceError(client.configurations.create({ name: 'x', ismTxChannel: 99 }), 400);
    expect(error.errors.some((e) => e.field === 'ismTxChannel')).toBe(true);
    await expectServiceError(client.configurations.get('00000000-0000-4000-8000-000000000000'), 404);
  });

  it('update and update with dryRun (which changes nothing)', async () => {
    const dry = await client.configurations.updateDryRun(configurationId, { ismTxChannel: 40 });
    expect(dry.some((v) => v.field === 'ismTxChannel' && v.code === 'ISM_CHANNEL_OUT_OF_RANGE')).toBe(true);
    expect(await client.configurations.updateDryRun(configurationId, { ismTxChannel: 7 })).toEqual([]);
    expect((await client.configurations.get(configurationId)).ismTxChannel).toBe(5);
    const updated = await client.configurations.update(configurationId, { ismTxChannel: 7 });
    expect(updated.ismTxChannel).toBe(7);
  });

  it('devices in a configuration: add (dry run first), update (dry run first), status, remove', async () => {
    const [sender, receiver] = srcpToEpcOverIsm.devices;
    const dry = await client.configurations.addDeviceDryRun(configurationId, sender!.payload);
    expect(dry).toEqual([]);
    expect((await client.configurations.get(configurationId)).devices).toEqual([]);
    const incomplete = await client.configurations.validate(configurationId);
    expect(incomplete.complete).toBe(false);

    expect(
      (await client.configurations.addDevice(configurationId, sender!.payload)).devices.map((d) => d.serialNumber),
    ).toEqual(['SRCP000101']);
    await client.configurations.addDevice(configurationId, receiver!.payload);
    const status = await client.configurations.validate(configurationId);
    expect(status).toMatchObject({ configurationId, complete: true, errors: [] });
    expect(status.readyDevices.sort()).toEqual(['EPC000101', 'SRCP000101']);

    const dryUpdate = await client.configurations.updateDeviceDryRun(configurationId, 'EPC000101', { can0Id: 2 });
    expect(dryUpdate).toEqual([]);
    const updated = await client.configurations.updateDevice(configurationId, 'EPC000101', { can0Id: 2 });
    expect(updated.devices.find((d) => d.serialNumber === 'EPC000101')?.can0Id).toBe(2);

    await client.configurations.addDevice(configurationId, {
      serialNumber: 'EPC000102',
      deviceConfigurationType: 'Receiver',
      commInterface: 'ISM',
      can0Id: 3,
    });
    expect((await client.configurations.get(configurationId)).devices.map((d) => d.serialNumber)).toContain(
      'EPC000102',
    );
    const without = await client.configurations.removeDevice(configurationId, 'EPC000102');
    expect(without.devices.map((d) => d.serialNumber)).not.toContain('EPC000102');
    expect((await client.devices.list({ configurableOnly: true })).items.map((d) => d.serialNumber)).toContain(
      'EPC000102',
    );
  });

  it('configuration file and blank file: streamed to disk with the X-Config-File-Sync-Id header, matching the CBOR syncId', async () => {
    const file = await client.devices.downloadConfigurationFile('EPC000101', { path: join(dir, 'EPC000101.cbor') });
    expect(file.syncId).toMatch(/^[0-9a-f-]{36}$/);
    const decoded = decodeConfigFile(await readFile(file.path));
    expect(decoded.syncId).toBe(file.syncId);
    expect(decoded.serialNumber).toBe('EPC000101');
    syncId = file.syncId!;
    const again = await client.devices.fetchConfigurationFile('EPC000101');
    expect(again.syncId).toBe(syncId);
    const blank = await client.devices.fetchBlankConfigurationFile('EPC000101');
    expect(decodeConfigFile(blank.bytes).content.blank).toBe(true);
    const blankOnDisk = await client.devices.downloadBlankConfigurationFile('SRCP000101', {
      path: join(dir, 'blank.cbor'),
    });
    expect(decodeConfigFile(await readFile(blankOnDisk.path)).serialNumber).toBe('SRCP000101');
    // a device in no configuration has no file yet
    await expect(client.devices.fetchConfigurationFile('NSCP000101')).rejects.toBeInstanceOf(ServiceError);
  });

  it("what a syncId set (ours): the settings of the file with that syncId; another device's syncId is not found", async () => {
    const issued = await client.devices.issuedSyncId('EPC000101', syncId);
    const file = decodeConfigFile((await client.devices.fetchConfigurationFile('EPC000101')).bytes);
    expect(issued).toMatchObject({ syncId, serialNumber: 'EPC000101', configurationId: file.content.configurationId });
    expect(issued.settings).toMatchObject({ blank: false, safety: file.content.safety, peers: file.content.peers });
    const missing = await expectServiceError(client.devices.issuedSyncId('SRCP000101', syncId), 404);
    expect(missing.errors.map((e) => e.code)).toEqual(['SYNC_ID_NOT_FOUND']);
  });

  it("the organization's ledger chain (ours): entries appended once, read back by pages", async () => {
    const entries = [signedLedgerEntry(), signedLedgerEntry()];
    // The workstation's key is enrolled first (a second time is a no-op): the service takes only its entries.
    expect(await client.workstations.enrol(fixtureWorkstationEnrolment('demo'))).toMatchObject({
      key: { workstation: 'fixture-workstation', status: 'active' },
    });
    expect((await client.workstations.enrol(fixtureWorkstationEnrolment('demo'))).enrolled).toBe(false);
    expect(await client.ledger.append(entries)).toMatchObject({ received: 2, known: 0 });
    expect(await client.ledger.append(entries)).toMatchObject({ received: 0, known: 2 });
    const page = await client.ledger.page(0);
    expect(page.entries.map((e) => e.entry.hash)).toEqual(expect.arrayContaining(entries.map((e) => e.hash)));
    const list = verifyWorkstationKeyList(await client.workstations.keyList(), {
      rootKeyPem: (await client.signingKey()).publicKeyPem,
      orgId: 'demo',
    });
    expect(list.keys.map((key) => key.workstation)).toContain('fixture-workstation');
    expect(await client.workstations.revoke('fixture-workstation', 'contract test')).toMatchObject({
      status: 'revoked',
      reason: 'contract test',
      validThroughSeq: entries.at(-1)!.seq,
    });
    await expectServiceError(client.ledger.append([signedLedgerEntry()]), 403);
    const grant = await client.workstations.grant(
      '00000000-0000-4000-8000-0000000000c1',
      new Date(Date.now() + 86_400_000).toISOString(),
    );
    expect(grant).toMatchObject({ grantId: expect.any(String), token: expect.any(String) });
  });

  it("work-packages/signatures: the organization's key signs a package manifest", async () => {
    const orgKey = await client.organizationSigningKey();
    const manifest = manifestText({
      orgId: 'demo',
      root: await client.signingKey(),
      releaseKeys: await client.firmwareReleaseKeys(),
      orgKey,
    });
    const signed = await client.workPackages.sign(manifest);
    expect(signed.keyId).toBe(orgKey.keyId);
    const bytes = new TextEncoder().encode(manifest);
    expect(
      verify(
        'sha256',
        organizationSignedBytes(bytes),
        { key: createPublicKey(orgKey.publicKeyPem), dsaEncoding: 'ieee-p1363' },
        Buffer.from(signed.signature, 'base64'),
      ),
    ).toBe(true);
  });

  it('confirm-apply-firmware and confirm-apply-configuration update the device record; a replay is a no-op', async () => {
    const firmware = {
      firmwareFileSuccessfullyDeployed: true,
      error: null,
      firmwareVersion: '1.1.0',
      applyTimeStamp: '2026-01-02T03:04:05.000Z',
    };
    expect(await client.devices.confirmApplyFirmware('EPC000101', firmware)).toBe(true);
    expect(await client.devices.confirmApplyFirmware('EPC000101', firmware)).toBe(true);
    const configuration = {
      configurationFileSuccessfullyDeployed: true,
      error: null,
      syncId,
      applyTimeStamp: '2026-01-02T03:05:00.000Z',
    };
    expect(await client.devices.confirmApplyConfiguration('EPC000101', configuration)).toBe(true);
    expect(await client.devices.confirmApplyConfiguration('EPC000101', configuration)).toBe(true);
    const [record] = (await client.devices.list({ serial: 'EPC000101' })).items;
    expect(record).toMatchObject({ firmwareVersion: '1.1.0', deployStatus: 'Deployed', deployedSyncId: syncId });
    expect(record!.lastFirmwareApply).toMatchObject({ success: true, firmwareVersion: '1.1.0' });
  });

  it('delete a configuration', async () => {
    const spare = (await client.configurations.list({ Search: 'Spare' })).items[0]!;
    const result = await client.configurations.delete(spare.id);
    expect(result).toEqual({ id: spare.id, deleted: true });
    await expectServiceError(client.configurations.get(spare.id), 404);
  });
});

describe('users', () => {
  it('register, list (IsActive, Search, SortOptions), get, set role, delete (which deactivates)', async () => {
    expect(await client.users.register({ email: 'ana@example.com', userRole: 'Operator' })).toBe(true);
    expect(await client.users.register({ email: 'bo@example.com', userRole: 'ConfigManager' })).toBe(true);
    const listed = await client.users.list({
      Search: 'ana@',
      IsActive: true,
      SortOptions: 'FirstNameASC',
      limit: 30,
      page: 1,
    });
    expect(listed.items.map((u) => u.email)).toEqual(['ana@example.com']);
    const ana = listed.items[0]!;
    expect(await client.users.get(ana.id)).toEqual(ana);
    expect(await client.users.setRole(ana.id, 'DeviceManager')).toBe(true);
    expect((await client.users.get(ana.id)).userRole).toBe('DeviceManager');
    expect((await collect(client.users.listAll({}, { pageSize: 1 }))).map((u) => u.email).sort()).toEqual([
      'ana@example.com',
      'bo@example.com',
    ]);
    expect(await client.users.delete(ana.id)).toBe(true);
    expect((await client.users.get(ana.id)).isActive).toBe(false);
    expect((await client.users.list({ IsActive: false })).items.map((u) => u.email)).toEqual(['ana@example.com']);
    await expectServiceError(client.users.get('00000000-0000-4000-8000-000000000000'), 404);
    await expectServiceError(client.users.register({ email: 'bo@example.com', userRole: 'Operator' }), 409);
    await expectServiceError(client.users.register({ email: 'not-an-email', userRole: 'Operator' }), 400);
  });
});

describe('coverage', () => {
  it('every operation the service serves was called through the client', () => {
    const patterns = ALL_OPERATIONS.filter((op) => op.path !== '/openapi.json').map((op) => ({
      operation: `${op.method} /v1${op.path}`,
      method: op.method,
      regex: new RegExp(`^/v1${op.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
    }));
    const missed = patterns
      .filter((p) => !called.some((c) => c.method === p.method && p.regex.test(c.path)))
      .map((p) => p.operation);
    expect(missed).toEqual([]);
    expect(patterns.length).toBeGreaterThanOrEqual(32);
  });
});
