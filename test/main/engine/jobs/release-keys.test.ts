import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { generateReleaseKeyPair } from '../../../../domain/files/firmware-release-key';
import { checkFirmwareSignature } from '../../../../main/engine/cache/firmware-signature';
import { ReleaseKeyStore, type ReleaseKeySource } from '../../../../main/engine/cache/release-key-store';
import { NetworkError, ServiceError } from '../../../../main/cloud/errors';
import { signedTestBundle, testReleaseKey } from '../../../fixtures/release-key';

/**
 * The host's check before a firmware job touches a device: the bundle is signed by a release key
 * the service trusts, with the service's list kept on disk for installs without the service.
 */

let dir: string;
let now: number;
let up: boolean;
let asked: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-release-keys-'));
  now = Date.parse('2025-06-01T00:00:00Z');
  up = true;
  asked = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const serviceKeys = [
  {
    keyId: testReleaseKey.keyId,
    name: 'plant release key',
    algorithm: 'Ed25519' as const,
    publicKeyPem: testReleaseKey.publicKeyPem,
    trustedAt: '2025-01-01T00:00:00.000Z',
  },
];

function service(answer: () => Promise<typeof serviceKeys> = async () => serviceKeys): ReleaseKeySource {
  return {
    baseUrl: 'http://service.test',
    firmwareReleaseKeys: async () => {
      asked += 1;
      if (!up) throw new NetworkError('unreachable', { method: 'GET', path: '/v1/firmware-release-keys' });
      return answer();
    },
  };
}

const store = () => new ReleaseKeyStore({ dir, now: () => now });
const bundle = readFirmwareBundle(signedTestBundle('EPC', '2.0.0'));

describe("checking a bundle's signature on the host", () => {
  it('names the trusted key that signed it, and hands over the signed manifest for the announce', async () => {
    const checked = await checkFirmwareSignature(bundle, store(), service());
    expect(checked.signer).toEqual({ keyId: testReleaseKey.keyId, name: 'plant release key' });
    expect(Buffer.from(checked.signedManifest).equals(Buffer.from(bundle.signed!.bytes))).toBe(true);
  });

  it('refuses a bundle signed by a key the service does not trust, and an unsigned one', async () => {
    const other = readFirmwareBundle(signedTestBundle('EPC', '2.0.0', 2048, { key: generateReleaseKeyPair() }));
    await expect(checkFirmwareSignature(other, store(), service())).rejects.toMatchObject({ code: 'FW_UNTRUSTED_KEY' });
    await expect(checkFirmwareSignature({ ...bundle, signed: null }, store(), service())).rejects.toMatchObject({
      code: 'FW_UNSIGNED',
    });
  });

  it('checks with the keys kept from the service when it is unreachable, and refuses when it was never reached', async () => {
    await store().get(service());
    up = false;
    // A new store is a new process: nothing fresh in memory, only what was kept on disk.
    const offline = await store().get(service());
    expect(offline).toMatchObject({
      origin: 'stored',
      keys: [{ keyId: testReleaseKey.keyId, name: 'plant release key' }],
    });
    expect((await checkFirmwareSignature(bundle, store(), service())).signer.name).toBe('plant release key');
    await expect(
      checkFirmwareSignature(bundle, store(), { ...service(), baseUrl: 'http://elsewhere.test' }),
    ).rejects.toMatchObject({ code: 'FW_RELEASE_KEYS_UNKNOWN' });
  });

  it("takes the service's word when it answers: a key it no longer lists is no longer trusted", async () => {
    const keys = store();
    await keys.get(service());
    now += 61_000;
    await expect(
      checkFirmwareSignature(
        bundle,
        keys,
        service(async () => []),
      ),
    ).rejects.toMatchObject({ code: 'FW_UNTRUSTED_KEY' });
  });

  it('asks the service at most once a minute, and passes on what is not an outage', async () => {
    const keys = store();
    await keys.get(service());
    await keys.get(service());
    expect(asked).toBe(1);
    now += 61_000;
    await keys.get(service());
    expect(asked).toBe(2);
    now += 61_000;
    const refused = new ServiceError(403, [{ code: 'FORBIDDEN', message: 'no' }], {
      method: 'GET',
      path: '/v1/firmware-release-keys',
    });
    await expect(keys.get(service(async () => Promise.reject(refused)))).rejects.toBe(refused);
  });
});
