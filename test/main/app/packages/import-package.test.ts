import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeConfigFile } from '../../../../domain/files/config-file';
import { FileFormatError } from '../../../../domain/files/file-error';
import { buildWorkPackage } from '../../../../domain/files/work-package';
import { generateContainerSigner } from '../../../../domain/files/work-package-container';
import { importWorkPackage, WorkPackageError } from '../../../../main/app/packages';
import { useScratchDir } from '../../../fixtures/scratch';
import { configFileFor, makePackage, ORG_ID, packageWorld, plantStores, SERVICE_URL } from './helpers';

/**
 * What a workstation without network takes from a work package: everything its jobs look for
 * without the service, and only from a package that is intact, in date, for its organization,
 * signed by the key it was told to expect, and consistent with the root key it already knows.
 */

const scratch = useScratchDir('work-package-import');
const account = { serviceUrl: SERVICE_URL, orgId: ORG_ID };

async function plant() {
  return plantStores(await mkdtemp(join(scratch.dir, 'plant-')));
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
    const imported = await importWorkPackage({ bytes: made.bytes, account, ...stores, requiredSigner: world.signer.keyId });

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
    expect((await stores.cache.releaseKeys.stored(SERVICE_URL))?.keys.map((k) => k.keyId)).toEqual(made.body.keys.firmwareReleaseKeys.map((k) => k.keyId));
    expect(await readdir(stores.recordDir)).toEqual([`${made.body.packageId}.json`]);
  });

  it('refuses a package with one byte changed, wherever the byte is, and keeps nothing', { timeout: 120_000 }, async () => {
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
      const code = await codeOf(importWorkPackage({ bytes: changed, account, ...stores }));
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    expect(codes.get('accepted')).toBeUndefined();
    expect([...codes.keys()].every((code) => code === 'WP_TAMPERED' || code === 'WP_NOT_A_PACKAGE')).toBe(true);
    expect(codes.get('WP_TAMPERED')).toBeGreaterThan(positions.size / 2);
    await expectNothingKept(stores);
    // The same package unchanged is taken.
    expect(await codeOf(importWorkPackage({ bytes, account, ...stores }))).toBe('accepted');
  });

  it('says the package was changed, and how to get a good one', async () => {
    const world = packageWorld();
    const { bytes } = makePackage(world);
    const changed = new Uint8Array(bytes);
    changed[Math.floor(bytes.length / 2)]! ^= 0x80;
    await expect(importWorkPackage({ bytes: changed, account, ...(await plant()) })).rejects.toThrow(/^The work package has been changed since it was signed \(.+\)\. Do not use it: ask for a new one\.$/);
    await expect(importWorkPackage({ bytes: new TextEncoder().encode('not a package'), account, ...(await plant()) })).rejects.toThrow(
      'The file is not a work package: it is not a zip file. Check that you chose the right file.',
    );
  });

  it('refuses an expired package, saying when it expired', async () => {
    const world = packageWorld();
    const madeAt = new Date('2026-03-01T08:00:00Z');
    const { bytes } = makePackage(world, { now: madeAt, days: 7 });
    const stores = await plant();
    const inTime = await plant();
    const later = () => new Date('2026-03-08T08:00:00Z');
    await expect(importWorkPackage({ bytes, account, ...stores, now: later })).rejects.toThrow(
      'The work package expired on 2026-03-08T08:00:00.000Z (it is now 2026-03-08T08:00:00.000Z). Its firmware and configuration files may be out of date: export a new one from a workstation that reaches the service.',
    );
    expect(await codeOf(importWorkPackage({ bytes, account, ...stores, now: later }))).toBe('WP_EXPIRED');
    await expectNothingKept(stores);
    expect(await codeOf(importWorkPackage({ bytes, account, ...inTime, now: () => new Date('2026-03-08T07:59:59Z') }))).toBe('accepted');
  });

  it('refuses a package of another organization or service', async () => {
    const world = packageWorld();
    const { bytes } = makePackage(world);
    const stores = await plant();
    await expect(importWorkPackage({ bytes, account: { serviceUrl: SERVICE_URL, orgId: 'other-org' }, ...stores })).rejects.toThrow(
      `This work package is for organization ${ORG_ID} at ${SERVICE_URL}, but this workstation works for organization other-org at ${SERVICE_URL}. Import it on a workstation of that organization (or log in to it).`,
    );
    expect(await codeOf(importWorkPackage({ bytes, account: { serviceUrl: 'https://elsewhere.example.test', orgId: ORG_ID }, ...stores }))).toBe('WP_WRONG_ORGANIZATION');
    await expectNothingKept(stores);
  });

  it('refuses a package signed by another workstation than the one named, and one forged with another root key', async () => {
    const world = packageWorld();
    const genuine = makePackage(world);
    const stores = await plant();
    await importWorkPackage({ bytes: genuine.bytes, account, ...stores });

    // Someone else's workstation key and root key: the signature is sound, the package is not the service's.
    const forger = packageWorld();
    const forged = makePackage(forger);
    expect(await codeOf(importWorkPackage({ bytes: forged.bytes, account, ...(await plant()), requiredSigner: world.signer.keyId }))).toBe('WP_UNTRUSTED_SIGNER');
    await expect(importWorkPackage({ bytes: forged.bytes, account, ...stores })).rejects.toThrow(/^This work package carries another root key/);
    // What was kept from the genuine one is untouched.
    expect((await stores.signingKeys.stored())?.publicKeyPem).toBe(world.root.publicKeyPem);
  });

  it('refuses a package whose files do not pass the checks the devices make, even when it is signed', async () => {
    const world = packageWorld();
    const stores = await plant();
    // A configuration file of another organization, signed into a package of this one.
    const foreign = configFileFor(world, 'EPC000101', 'EPC', { orgId: 'other-org' });
    const mixed = makePackage(world, { configFiles: { EPC000101: foreign } });
    expect(await codeOf(importWorkPackage({ bytes: mixed.bytes, account, ...stores }))).toBe('WP_TAMPERED');
    // A device list that names another syncId than its file holds.
    const renamed = makePackage(world, {
      change: (body) => {
        body.devices[0]!.syncId = '00000000-0000-4000-8000-000000000000';
      },
    });
    expect(await codeOf(importWorkPackage({ bytes: renamed.bytes, account, ...stores }))).toBe('WP_TAMPERED');
    // A firmware bundle not signed by a release key the package trusts.
    const unsigned = makePackage(world, {
      change: (body) => {
        body.keys.firmwareReleaseKeys = [];
      },
    });
    expect(await codeOf(importWorkPackage({ bytes: unsigned.bytes, account, ...stores }))).toBe('FW_UNTRUSTED_KEY');
    await expectNothingKept(stores);
  });

  it('keeps a newer configuration file over an older package replayed later', async () => {
    const world = packageWorld();
    const older = makePackage(world);
    const newer = makePackage(world);
    const stores = await plant();
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
    const stores = await plant();
    const imported = await importWorkPackage({ bytes: made.bytes, account, ...stores });
    // Kept where the cache keeps patches (main/app/cache/patch-store.ts), in builds that have it.
    const store = (stores.cache as unknown as { patches?: { to(target: string): Promise<Array<{ patch: Uint8Array }>> } }).patches;
    expect(imported.patches).toEqual({ carried: 1, kept: store ? 1 : 0 });
    if (store) expect((await store.to(made.body.patches[0]!.targetSha256)).map((p) => p.patch)).toEqual([made.files.get(made.body.patches[0]!.file)]);

    const elsewhere = makePackage(world, { withPatch: { patchTarget: new Uint8Array(2048).fill(7) } });
    const refused = await plant();
    await expect(importWorkPackage({ bytes: elsewhere.bytes, account, ...refused })).rejects.toThrow(
      'The EPC patch from 1.0.0 in the work package does not build firmware the package carries. Do not use it: ask for a new one.',
    );
    await expectNothingKept(refused);
  });

  it('is refused when it names a file it does not hold', () => {
    const world = packageWorld();
    const made = makePackage(world);
    const files = new Map(made.files);
    files.delete(made.body.devices[0]!.configFile);
    expect(() => buildWorkPackage(made.body, files, generateContainerSigner())).toThrow(/names config-files\/EPC000101\.cbor but it was not given/);
  });
});
