import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeConfigFile } from '../../../../domain/files/config-file';
import { FileFormatError } from '../../../../domain/files/file-error';
import { buildWorkPackage, MAX_WORK_PACKAGE_DAYS } from '../../../../domain/files/work-package';
import { generateContainerSigner } from '../../../../domain/files/work-package-container';
import { importWorkPackage, WorkPackageError } from '../../../../main/features/packages';
import { organizationSigner } from '../../../fixtures/config-files';
import { useScratchDir } from '../../../fixtures/scratch';
import {
  configFileFor,
  makePackage,
  ORG_ID,
  otherOrganizationOf,
  packageWorld,
  plantStores,
  rootFingerprintOf,
  SERVICE_URL,
  type PackageWorld,
} from './helpers';

/**
 * What a workstation without network takes from a work package: everything its jobs look for
 * without the service, and only from a package that is intact, in date, for its organization,
 * signed by its organization's key under the root key the laptop trusts (kept from the service, or
 * taken by the fingerprint the technician gives), and consistent with that root key.
 */

const scratch = useScratchDir('work-package-import');
const account = { serviceUrl: SERVICE_URL, orgId: ORG_ID };

async function plant() {
  return plantStores(await mkdtemp(join(scratch.dir, 'plant-')));
}

/** A laptop never signed in, told the root key's fingerprint of `world`'s service. */
const told = (world: PackageWorld) => ({ rootFingerprint: rootFingerprintOf(world) });

/** A laptop signed in to `world`'s service once: it keeps the root key the service gave it. */
async function signedInOnce(world: PackageWorld) {
  const stores = await plant();
  await stores.signingKeys.keep(
    { keyId: world.root.keyId, algorithm: 'ES256', publicKeyPem: world.root.publicKeyPem },
    new Date().toISOString(),
  );
  return stores;
}

async function codeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof FileFormatError || error instanceof WorkPackageError) return error.code;
    throw error;
  }
  return 'accepted';
}

/** Nothing of a refused package may be kept. */
async function expectNothingKept(stores: Awaited<ReturnType<typeof plant>>) {
  expect(await stores.cache.list()).toEqual([]);
  expect(await stores.configFiles.list()).toEqual([]);
  expect(await stores.signingKeys.stored()).toBeUndefined();
  await expect(readdir(stores.recordDir)).rejects.toThrow();
}

describe('importing a work package', () => {
  it('fills the caches the offline jobs read: firmware as served by its organization, each configuration file, the root and release keys', async () => {
    const world = packageWorld();
    const made = makePackage(world);
    const stores = await plant();
    const imported = await importWorkPackage({
      bytes: made.bytes,
      account,
      ...stores,
      ...told(world),
      requiredSigner: world.signer.keyId,
    });

    expect(imported.signerKeyId).toBe(world.signer.keyId);
    for (const device of made.body.devices) {
      const bundle = await stores.cache.latest(device.deviceType, account);
      expect(bundle?.entry.version).toBe('1.1.0');
      expect(bundle?.entry.sha256).toBe(device.firmware.sha256);
      const kept = await stores.configFiles.get(device.serialNumber);
      expect(kept?.meta.syncId).toBe(device.syncId);
    }
    // Another organization's offline fallback does not see them.
    expect(await stores.cache.latest('EPC', { serviceUrl: SERVICE_URL, orgId: 'other-org' })).toBeUndefined();
    expect((await stores.signingKeys.stored())?.publicKeyPem).toBe(world.root.publicKeyPem);
    expect((await stores.cache.releaseKeys.stored(SERVICE_URL))?.keys.map((k) => k.keyId)).toEqual(
      made.body.keys.firmwareReleaseKeys.map((k) => k.keyId),
    );
    expect(await readdir(stores.recordDir)).toEqual([`${made.body.packageId}.json`]);
  });

  it(
    'refuses a package with one byte changed, wherever the byte is, and keeps nothing',
    { timeout: 120_000 },
    async () => {
      const world = packageWorld();
      const { bytes } = makePackage(world);
      const stores = await plant();
      // Every byte of the zip headers and the manifest at the start and end, and a spread of the rest (the bundles, the files).
      const positions = new Set<number>();
      for (let i = 0; i < 64; i++) positions.add(i).add(bytes.length - 1 - i);
      for (let i = 0; i < bytes.length; i += Math.max(1, Math.floor(bytes.length / 400))) positions.add(i);
      const codes = new Map<string, number>();
      for (const position of positions) {
        const changed = new Uint8Array(bytes);
        changed[position]! ^= 0x01;
        const code = await codeOf(importWorkPackage({ bytes: changed, account, ...stores, ...told(world) }));
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
      expect(codes.get('accepted')).toBeUndefined();
      expect([...codes.keys()].every((code) => code === 'WP_TAMPERED' || code === 'WP_NOT_A_PACKAGE')).toBe(true);
      expect(codes.get('WP_TAMPERED')).toBeGreaterThan(positions.size / 2);
      await expectNothingKept(stores);
      // The same package unchanged is taken.
      expect(await codeOf(importWorkPackage({ bytes, account, ...stores, ...told(world) }))).toBe('accepted');
    },
  );

  it('says the package was changed, and how to get a good one', async () => {
    const world = packageWorld();
    const { bytes } = makePackage(world);
    const changed = new Uint8Array(bytes);
    changed[Math.floor(bytes.length / 2)]! ^= 0x80;
    await expect(importWorkPackage({ bytes: changed, account, ...(await plant()), ...told(world) })).rejects.toThrow(
      /^The work package has been changed since it was signed \(.+\)\. Do not use it: ask for a new one\.$/,
    );
    await expect(
      importWorkPackage({ bytes: new TextEncoder().encode('not a package'), account, ...(await signedInOnce(world)) }),
    ).rejects.toThrow('The file is not a work package: it is not a zip file. Check that you chose the right file.');
  });

  it('refuses an expired package, saying when it expired', async () => {
    const world = packageWorld();
    const madeAt = new Date('2026-03-01T08:00:00Z');
    const { bytes } = makePackage(world, { now: madeAt, days: 7 });
    const stores = await plant();
    const inTime = await plant();
    const later = () => new Date('2026-03-08T08:00:00Z');
    await expect(importWorkPackage({ bytes, account, ...stores, ...told(world), now: later })).rejects.toThrow(
      'The work package expired on 2026-03-08T08:00:00.000Z (it is now 2026-03-08T08:00:00.000Z). Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service.',
    );
    expect(await codeOf(importWorkPackage({ bytes, account, ...stores, ...told(world), now: later }))).toBe(
      'WP_EXPIRED',
    );
    await expectNothingKept(stores);
    expect(
      await codeOf(
        importWorkPackage({ bytes, account, ...inTime, ...told(world), now: () => new Date('2026-03-08T07:59:59Z') }),
      ),
    ).toBe('accepted');
  });

  it('refuses a package of another organization or service', async () => {
    const world = packageWorld();
    const { bytes } = makePackage(world);
    const stores = await plant();
    await expect(
      importWorkPackage({ bytes, account: { serviceUrl: SERVICE_URL, orgId: 'other-org' }, ...stores, ...told(world) }),
    ).rejects.toThrow(
      `This work package is for organization ${ORG_ID} at ${SERVICE_URL}, but this workstation works for organization other-org at ${SERVICE_URL}. Import it on a workstation of that organization (or log in to it).`,
    );
    expect(
      await codeOf(
        importWorkPackage({
          bytes,
          account: { serviceUrl: 'https://elsewhere.example.test', orgId: ORG_ID },
          ...stores,
          ...told(world),
        }),
      ),
    ).toBe('WP_WRONG_ORGANIZATION');
    await expectNothingKept(stores);
  });

  it('refuses, keeping nothing, a package whose signer does not chain to the root key this laptop trusts', async () => {
    const world = packageWorld();
    const genuine = makePackage(world);
    const stores = await signedInOnce(world);
    const keptRoot = await stores.signingKeys.stored();

    // A forger's own service: a fresh root key certifying a fresh organization key. Sound signature, not the service's.
    const forger = packageWorld();
    const forged = makePackage(forger);
    await expect(importWorkPackage({ bytes: forged.bytes, account, ...stores })).rejects.toThrow(
      new RegExp(
        `^The work package is not signed by organization ${ORG_ID} of the service this laptop trusts \\(its signing key is certified by another root key\\)`,
      ),
    );
    // Nor is it taken by a laptop never signed in that was told the genuine fingerprint, whatever root it carries.
    const fresh = await plant();
    expect(await codeOf(importWorkPackage({ bytes: forged.bytes, account, ...fresh, ...told(world) }))).toBe(
      'WP_ROOT_KEY_MISMATCH',
    );
    const withGenuineRoot = makePackage(forger, {
      change: (body) => (body.keys.configFileRootKey = genuine.body.keys.configFileRootKey),
    });
    expect(await codeOf(importWorkPackage({ bytes: withGenuineRoot.bytes, account, ...fresh, ...told(world) }))).toBe(
      'WP_UNTRUSTED_SIGNER',
    );
    await expectNothingKept(fresh);

    // A laptop of another organization of the same service: its key is certified, but for that organization.
    const neighbour = makePackage(otherOrganizationOf(world, 'neighbour-org'), {
      change: (body) => (body.origin.orgId = ORG_ID),
    });
    await expect(importWorkPackage({ bytes: neighbour.bytes, account, ...stores })).rejects.toThrow(
      /its signing key is organization neighbour-org's/,
    );

    // The genuine package, with another organization key named as required: refused too.
    expect(
      await codeOf(
        importWorkPackage({
          bytes: genuine.bytes,
          account,
          ...stores,
          requiredSigner: organizationSigner(forger.root, ORG_ID).keyId,
        }),
      ),
    ).toBe('WP_UNTRUSTED_SIGNER');
    expect(await stores.cache.list()).toEqual([]);
    expect(await stores.signingKeys.stored()).toEqual(keptRoot);
    // The genuine one, as it is: taken.
    expect(await codeOf(importWorkPackage({ bytes: genuine.bytes, account, ...stores }))).toBe('accepted');
  });

  it('takes no root key from a package unless the fingerprint given is its own, on a laptop never signed in', async () => {
    const world = packageWorld();
    const { bytes } = makePackage(world);
    const stores = await plant();
    await expect(importWorkPackage({ bytes, account, ...stores })).rejects.toThrow(
      `This laptop has never been signed in to ${SERVICE_URL}, so it has no root key to tell a package of organization ${ORG_ID} from a forgery. Give the service's root key fingerprint with --root-fingerprint: \`provisioner status\` shows it on any laptop signed in to the service. Nothing was imported.`,
    );
    expect(
      await codeOf(
        importWorkPackage({ bytes, account, ...stores, rootFingerprint: rootFingerprintOf(packageWorld()) }),
      ),
    ).toBe('WP_ROOT_KEY_MISMATCH');
    await expectNothingKept(stores);
    const imported = await importWorkPackage({ bytes, account, ...stores, ...told(world) });
    expect(imported.rootAdopted).toBe(true);
    expect((await stores.signingKeys.stored())?.publicKeyPem).toBe(world.root.publicKeyPem);
    // From then on it is this laptop's root: a wrong fingerprint given later is refused, none needed.
    expect(
      await codeOf(
        importWorkPackage({ bytes, account, ...stores, rootFingerprint: rootFingerprintOf(packageWorld()) }),
      ),
    ).toBe('WP_ROOT_KEY_MISMATCH');
    expect((await importWorkPackage({ bytes, account, ...stores })).rootAdopted).toBe(false);
  });

  it('refuses a package re-signed with a key of its own, and one claiming more than the cap', async () => {
    const world = packageWorld();
    const stores = await signedInOnce(world);
    // The attacker's re-signed genuine contents: a new expiry past the cap and a release key of theirs.
    const attacker = { root: world.root, signer: { ...organizationSigner(packageWorld().root, ORG_ID) } };
    const resigned = makePackage(attacker, { days: 400 });
    expect(await codeOf(importWorkPackage({ bytes: resigned.bytes, account, ...stores }))).toBe('WP_UNTRUSTED_SIGNER');
    // Even signed by the organization's key (which the service never does), more than the cap is refused.
    const tooLong = makePackage(world, { days: MAX_WORK_PACKAGE_DAYS + 1 });
    expect(await codeOf(importWorkPackage({ bytes: tooLong.bytes, account, ...stores }))).toBe('WP_TOO_LONG');
    expect(await stores.cache.list()).toEqual([]);
    expect(await stores.configFiles.list()).toEqual([]);
  });

  it("refuses a package of format 1, signed by a workstation's own key", async () => {
    const world = packageWorld();
    const made = makePackage(world);
    const { buildSignedZip } = await import('../../../../domain/files/work-package-container');
    const old = buildSignedZip({
      format: 'provisioner-work-package/1',
      body: made.body,
      files: made.files,
      signer: generateContainerSigner(),
    });
    await expect(importWorkPackage({ bytes: old, account, ...(await signedInOnce(world)) })).rejects.toThrow(
      /made by an earlier version and signed by a workstation's own key/,
    );
  });

  it('refuses a package whose files do not pass the checks the devices make, even when it is signed', async () => {
    const world = packageWorld();
    const stores = await plant();
    const trust = told(world);
    // A configuration file of another organization, signed into a package of this one.
    const foreign = configFileFor(world, 'EPC000101', 'EPC', { orgId: 'other-org' });
    const mixed = makePackage(world, { configFiles: { EPC000101: foreign } });
    expect(await codeOf(importWorkPackage({ bytes: mixed.bytes, account, ...stores, ...trust }))).toBe('WP_TAMPERED');
    // A device list that names another syncId than its file holds.
    const renamed = makePackage(world, {
      change: (body) => {
        body.devices[0]!.syncId = '00000000-0000-4000-8000-000000000000';
      },
    });
    expect(await codeOf(importWorkPackage({ bytes: renamed.bytes, account, ...stores, ...trust }))).toBe('WP_TAMPERED');
    // A firmware bundle not signed by a release key the package trusts.
    const unsigned = makePackage(world, {
      change: (body) => {
        body.keys.firmwareReleaseKeys = [];
      },
    });
    expect(await codeOf(importWorkPackage({ bytes: unsigned.bytes, account, ...stores, ...trust }))).toBe(
      'FW_UNTRUSTED_KEY',
    );
    await expectNothingKept(stores);
  });

  it('keeps a newer configuration file over an older package replayed later', async () => {
    const world = packageWorld();
    const older = makePackage(world);
    const newer = makePackage(world);
    const stores = await signedInOnce(world);
    await importWorkPackage({ bytes: newer.bytes, account, ...stores });
    const replayed = await importWorkPackage({ bytes: older.bytes, account, ...stores });
    expect(replayed.configFiles.map((c) => c.kept)).toEqual(['newer-already-kept', 'newer-already-kept']);
    for (const device of newer.body.devices) {
      const kept = await stores.configFiles.get(device.serialNumber);
      expect(decodeConfigFile(kept!.bytes).syncId.toLowerCase()).toBe(device.syncId);
    }
  });

  it('carries firmware patches to the cache, and refuses a patch that builds firmware the package does not carry', async () => {
    const world = packageWorld();
    const made = makePackage(world, { withPatch: {} });
    const stores = await signedInOnce(world);
    const imported = await importWorkPackage({ bytes: made.bytes, account, ...stores });
    // Kept where the cache keeps patches (main/engine/cache/patch-store.ts), in builds that have it.
    const store = (
      stores.cache as unknown as { patches?: { to(target: string): Promise<Array<{ patch: Uint8Array }>> } }
    ).patches;
    expect(imported.patches).toEqual({ carried: 1, kept: store ? 1 : 0 });
    if (store)
      expect((await store.to(made.body.patches[0]!.targetSha256)).map((p) => p.patch)).toEqual([
        made.files.get(made.body.patches[0]!.file),
      ]);

    const elsewhere = makePackage(world, { withPatch: { patchTarget: new Uint8Array(2048).fill(7) } });
    const refused = await plant();
    await expect(importWorkPackage({ bytes: elsewhere.bytes, account, ...refused, ...told(world) })).rejects.toThrow(
      'The EPC patch from 1.0.0 in the work package does not build firmware the package carries. Do not use it: ask for a new one.',
    );
    await expectNothingKept(refused);
  });

  it('is refused when it names a file it does not hold', () => {
    const world = packageWorld();
    const made = makePackage(world);
    const files = new Map(made.files);
    files.delete(made.body.devices[0]!.configFile);
    expect(() => buildWorkPackage(made.body, files, world.signer)).toThrow(
      /names config-files\/EPC000101\.cbor but it was not given/,
    );
  });
});
