import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateSigningKeyPair } from '../../domain/files/config-file-signature';
import { MAX_WORK_PACKAGE_DAYS } from '../../domain/files/work-package';
import { generateContainerSigner, organizationSignedBytes } from '../../domain/files/work-package-container';
import { manifestText, serviceKeys } from '../fixtures/work-package-manifest';
import { testReleaseKey } from '../fixtures/release-key';
import { backends, codes } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * POST work-packages/signatures, as an attacker holding a technician's key tries it: the service's
 * organization key signs a package manifest only when what the package grants is what the service
 * vouches for. Each manifest is made with the project's own package code; the asks for more trust
 * (another root, a release key of the attacker's, an expiry past the cap, another organization, a
 * grant the service never issued for the package) get no signature at all.
 */
describe.each(backends())('work package signatures on %s', (backend) => {
  const env = serviceForTests(backend);
  const DAY = 86_400_000;

  async function ask(manifest: string, key?: string) {
    return env.call('POST', '/work-packages/signatures', {
      key: key ?? (await env.keyFor('Operator')),
      body: { manifest },
    });
  }

  it("signs what the service vouches for with the organization's key, over the manifest's context line and bytes", async () => {
    const keys = await serviceKeys(env);
    const manifest = manifestText(keys);
    const answer = await ask(manifest);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.data.keyId).toBe(keys.orgKey.keyId);
    const signature = Buffer.from(answer.json.data.signature as string, 'base64');
    const key = createPublicKey(keys.orgKey.publicKeyPem);
    expect(
      verify(
        'sha256',
        organizationSignedBytes(new TextEncoder().encode(manifest)),
        { key, dsaEncoding: 'ieee-p1363' },
        signature,
      ),
    ).toBe(true);
    // Not a signature of the bare bytes: nothing else the organization's key signs can pass for a manifest.
    expect(verify('sha256', new TextEncoder().encode(manifest), { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(
      false,
    );
  });

  it('refuses to sign a package that grants more than the service vouches for', async () => {
    const keys = await serviceKeys(env);
    const attackerRelease = {
      keyId: 'a'.repeat(32),
      name: 'attacker',
      algorithm: 'Ed25519' as const,
      publicKeyPem: generateContainerSigner().publicKeyPem,
      trustedAt: new Date().toISOString(),
    };
    const fakeRoot = generateSigningKeyPair();
    const asks: Array<[string, string]> = [
      ['a release key of its own', manifestText(keys, (body) => body.keys.firmwareReleaseKeys.push(attackerRelease))],
      [
        'the test release key, which this service does not trust',
        manifestText(
          keys,
          (body) =>
            (body.keys.firmwareReleaseKeys = [
              { ...attackerRelease, keyId: testReleaseKey.keyId, publicKeyPem: testReleaseKey.publicKeyPem },
            ]),
        ),
      ],
      ['no release key at all', manifestText(keys, (body) => (body.keys.firmwareReleaseKeys = []))],
      [
        'an expiry past the cap',
        manifestText(
          keys,
          (body) =>
            (body.expiresAt = new Date(Date.parse(body.createdAt) + (MAX_WORK_PACKAGE_DAYS + 1) * DAY).toISOString()),
        ),
      ],
      [
        'a creation long ago and an expiry far ahead',
        manifestText(
          keys,
          (body) => (
            (body.createdAt = new Date(Date.now() - 300 * DAY).toISOString()),
            (body.expiresAt = new Date(Date.now() + 300 * DAY).toISOString())
          ),
        ),
      ],
      [
        'an expiry already past',
        manifestText(
          keys,
          (body) => (
            (body.createdAt = new Date(Date.now() - 10 * DAY).toISOString()),
            (body.expiresAt = new Date(Date.now() - DAY).toISOString())
          ),
        ),
      ],
      [
        'a creation in the future',
        manifestText(keys, (body) => (body.createdAt = new Date(Date.now() + DAY).toISOString())),
      ],
      [
        'another root key',
        manifestText(
          keys,
          (body) =>
            (body.keys.configFileRootKey = {
              keyId: fakeRoot.keyId,
              algorithm: 'ES256',
              publicKeyPem: fakeRoot.publicKeyPem,
            }),
        ),
      ],
      ['another organization', manifestText({ ...keys, orgId: 'other-org' })],
      [
        'a made-up enrolment grant',
        manifestText(
          keys,
          (body) =>
            (body.enrolmentGrant = {
              grantId: '00000000-0000-4000-8000-0000000000ee',
              token: 'x'.repeat(43),
              expiresAt: body.expiresAt,
            }),
        ),
      ],
      ['another signer key', manifestText({ ...keys, orgKey: { ...keys.orgKey, keyId: 'b'.repeat(32) } })],
      ['not a manifest', '{"format":"provisioner-work-confirmations/1","body":{}}'],
    ];
    for (const [what, manifest] of asks) {
      const answer = await ask(manifest);
      expect(answer.status, what).toBeGreaterThanOrEqual(400);
      expect(codes(answer), what).toEqual(['WORK_PACKAGE_REFUSED']);
      expect(answer.json.data, what).toBeNull();
    }
  });

  it("signs a package carrying a grant only when the grant is this organization's, for this package", async () => {
    const operator = await env.keyFor('Operator');
    const keys = await serviceKeys(env);
    let packageId = '';
    const probe = manifestText(keys, (body) => (packageId = body.packageId));
    expect((await ask(probe, operator)).status).toBe(200);
    const expiresAt = new Date(Date.now() + 7 * DAY).toISOString();
    const issued = await env.call('POST', '/workstations/grants', { key: operator, body: { packageId, expiresAt } });
    expect(issued.status).toBe(201);
    const grant = issued.json.data as { grantId: string; token: string; expiresAt: string };
    const withGrant = manifestText(
      keys,
      (body) => ((body.packageId = packageId), (body.expiresAt = expiresAt), (body.enrolmentGrant = grant)),
    );
    expect((await ask(withGrant, operator)).status).toBe(200);
    // The same grant in another package: refused.
    const moved = manifestText(keys, (body) => ((body.expiresAt = expiresAt), (body.enrolmentGrant = grant)));
    expect(codes(await ask(moved, operator))).toEqual(['WORK_PACKAGE_REFUSED']);
  });
});
