import { beforeAll, describe, expect, it } from 'vitest';
import { createPublicKey } from 'node:crypto';
import { verifyConfigFile, verifyOrganizationKey, type DecodedConfigFile } from '../../domain/files';
import { backends, codes, register, rootKeyPemOf } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Configuration files that cannot be moved or replayed, from the service's side: each
 * organization's files are signed by its own key (certified by the service's root key, sealed at
 * rest), and each file carries a sequence per device that only goes up, also under concurrent
 * downloads.
 */
describe.each(backends())('configuration file keys and sequences on %s', (backend) => {
  const env = serviceForTests(backend);
  let rootKeyPem: string;
  let otherKey: string;
  const OTHER_ORG = 'plant-b';
  const OURS = 'EPC000101';
  const THEIRS = 'EPC000102';

  async function registerIn(orgId: string, key: string, serials: string[]): Promise<void> {
    for (const serial of serials) {
      const response = await env.call('POST', `/devices?serialNumber=${serial}&name=${serial}`, { orgId, key });
      expect(response.status, JSON.stringify(response.json?.errors)).toBe(201);
    }
  }

  beforeAll(async () => {
    rootKeyPem = await rootKeyPemOf(env);
    otherKey = await env.createOrg(OTHER_ORG, 'NA');
    await register(env, [OURS, 'NSCP000101']);
    await registerIn(OTHER_ORG, otherKey, [THEIRS, 'NSCP000102']);
  });

  async function blankFile(serial: string, orgId = env.orgId, key = env.adminKey): Promise<DecodedConfigFile> {
    const response = await env.call('GET', `/devices/${serial}/configuration-file/blank`, { orgId, key });
    expect(response.status, JSON.stringify(response.json?.errors)).toBe(200);
    return verifyConfigFile(response.bytes, { rootKeyPem, expectedSerialNumber: serial });
  }

  it("signs each organization's files with its own key, certified by the root key", async () => {
    const ours = await blankFile(OURS);
    const theirs = await blankFile(THEIRS, OTHER_ORG, otherKey);
    expect(ours.orgId).toBe(env.orgId);
    expect(theirs.orgId).toBe(OTHER_ORG);
    expect(ours.keyId).not.toBe(theirs.keyId);
    const root = (await env.call('GET', '/v1/config-file-signing-key', { key: null })).json.data;
    expect([ours.keyId, theirs.keyId]).not.toContain(root.keyId);
    expect(ours.orgKey.rootKeyId).toBe(root.keyId);
    expect(theirs.orgKey.rootKeyId).toBe(root.keyId);
    // The same key for every file of an organization.
    expect((await blankFile('NSCP000101')).keyId).toBe(ours.keyId);
  });

  it('serves each organization’s key without an API key, and the key matches its files', async () => {
    const file = await blankFile(THEIRS, OTHER_ORG, otherKey);
    const response = await env.call('GET', `/v1/organizations/${OTHER_ORG}/config-file-signing-key`, { key: null });
    expect(response.status).toBe(200);
    const served = response.json.data;
    expect(served).toMatchObject({ orgId: OTHER_ORG, keyId: file.keyId, algorithm: 'ES256' });
    const certified = verifyOrganizationKey(new Uint8Array(Buffer.from(served.certificate, 'base64')), rootKeyPem);
    expect(certified).toEqual({ orgId: OTHER_ORG, keyId: file.keyId, publicKeyPem: served.publicKeyPem });

    const unknown = await env.call('GET', '/v1/organizations/no-such-org/config-file-signing-key', { key: null });
    expect(unknown.status).toBe(404);
    expect(codes(unknown)).toEqual(['ORGANIZATION_NOT_FOUND']);
  });

  it('keeps each private key sealed in the database', async () => {
    await blankFile(OURS);
    const { rows } = await env.db.query<{
      org_id: string;
      key_id: string;
      public_key_pem: string;
      private_key_sealed: Uint8Array;
    }>('SELECT org_id, key_id, public_key_pem, private_key_sealed FROM organization_signing_keys ORDER BY org_id');
    expect(rows.map((r) => r.org_id)).toEqual(expect.arrayContaining([env.orgId, OTHER_ORG]));
    for (const row of rows) {
      const sealed = Buffer.from(row.private_key_sealed);
      expect(sealed.includes('PRIVATE KEY')).toBe(false);
      const privateKeyPem = env.service.ctx.secrets.box.open(new Uint8Array(sealed));
      expect(createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' })).toBe(row.public_key_pem);
    }
  });

  it('gives every file of a device a higher sequence than the one before, blank or not, whatever other devices download', async () => {
    const first = await blankFile('NSCP000101');
    const second = await blankFile('NSCP000101');
    await blankFile('NSCP000102', OTHER_ORG, otherKey);
    const third = await blankFile('NSCP000101');
    expect(second.sequence).toBeGreaterThan(first.sequence);
    expect(third.sequence).toBeGreaterThan(second.sequence);
    // The same content keeps its syncId; only the sequence (and issue time) moves.
    expect(third.syncId).toBe(first.syncId);
  });

  it('never gives two concurrent downloads the same sequence, and every one is newer than what came before', async () => {
    const before = (await blankFile(OURS)).sequence;
    const files = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? blankFile(OURS) : blankFile(THEIRS, OTHER_ORG, otherKey))),
    );
    const sequences = files.map((f) => f.sequence);
    expect(new Set(sequences).size).toBe(files.length);
    expect(Math.min(...sequences)).toBeGreaterThan(before);
    expect((await blankFile(OURS)).sequence).toBeGreaterThan(Math.max(...sequences));
  });

  it('makes one key for a new organization however many of its first downloads run at once', async () => {
    const key = await env.createOrg('plant-c', 'NA');
    await registerIn('plant-c', key, ['WESP000101']);
    const files = await Promise.all(Array.from({ length: 8 }, () => blankFile('WESP000101', 'plant-c', key)));
    expect(new Set(files.map((f) => f.keyId)).size).toBe(1);
    const { rows } = await env.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM organization_signing_keys WHERE org_id = 'plant-c'",
    );
    expect(rows[0]!.n).toBe(1);
  });
});
