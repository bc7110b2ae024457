import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../domain/files/firmware-image';
import { applyFirmwarePatch } from '../../../domain/files/firmware-patch';
import { releaseKeyFromPem } from '../../../domain/files/firmware-release-key';
import { openDatabase, type Database } from '../../../server';
import { importFirmwareBundle, latestFirmware } from '../../../server/store/firmware';
import { firmwarePatchBytes, firmwarePatchesTo } from '../../../server/store/firmware-patches';
import { trustReleaseKey } from '../../../server/store/release-keys';
import { testReleaseKey } from '../../fixtures/release-key';
import { pgliteTemplate } from '../harness';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Release `version` of one firmware: the same body as 1.0.0 with `edits` bytes changed. */
function release(version: string, edits: number): Uint8Array {
  const image = makeFirmwareImage('EPC', version, 16 * 1024);
  image.set(makeFirmwareImage('EPC', '1.0.0', 16 * 1024).subarray(64), 64);
  for (let i = 0; i < edits; i++) image[200 + i * 101] = image[200 + i * 101]! ^ 0xff;
  return image;
}

describe('firmware patches in the service', () => {
  let dir: string;
  let db: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'provisioner-patches-'));
    db = await openDatabase({ dataDir: dir, pgliteTemplate: await pgliteTemplate() });
    await trustReleaseKey(db, releaseKeyFromPem(testReleaseKey.publicKeyPem, 'patch test key'));
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const importRelease = (version: string, image: Uint8Array) =>
    db.transaction((tx) =>
      importFirmwareBundle(
        tx,
        buildFirmwareBundle({ deviceType: 'EPC', version, image, releaseKeyPem: testReleaseKey.privateKeyPem }),
        { deviceType: 'EPC', version },
      ),
    );

  it('makes patches from the earlier releases when a release is imported, each rebuilding the new image from its base', async () => {
    const images = { '1.0.0': release('1.0.0', 0), '1.1.0': release('1.1.0', 5), '1.2.0': release('1.2.0', 9) };
    for (const [version, image] of Object.entries(images)) await importRelease(version, image);
    const offered = await firmwarePatchesTo(db, 'EPC', '1.2.0');
    expect(offered.map((p) => p.fromVersion)).toEqual(['1.1.0', '1.0.0']);
    expect(offered[0]).toMatchObject({ baseSha256: sha(images['1.1.0']), targetSha256: sha(images['1.2.0']) });
    for (const from of ['1.0.0', '1.1.0'] as const) {
      const found = await firmwarePatchBytes(db, 'EPC', from, '1.2.0');
      expect(sha(await applyFirmwarePatch(images[from], found!.patch))).toBe(sha(images['1.2.0']));
    }
  });

  it('makes none between images that share nothing: the deflated image would be smaller', async () => {
    await importRelease('2.0.0', makeFirmwareImage('EPC', '2.0.0', 16 * 1024));
    expect(await firmwarePatchesTo(db, 'EPC', '2.0.0')).toEqual([]);
  });

  it('serves as latest the version the app also takes for the latest: one order of versions (rc10 after rc2)', async () => {
    // The service had its own order, which put 3.0.0-rc2 after 3.0.0-rc10 while the app's put it before.
    await importRelease('3.0.0-rc2', makeFirmwareImage('EPC', '3.0.0-rc2', 16 * 1024));
    await importRelease('3.0.0-rc10', makeFirmwareImage('EPC', '3.0.0-rc10', 16 * 1024));
    expect((await latestFirmware(db, 'EPC'))?.version).toBe('3.0.0-rc10');
  });
});
