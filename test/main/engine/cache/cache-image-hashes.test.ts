import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { createFirmwarePatch } from '../../../../domain/files/firmware-patch';
import { cachedPatches } from '../../../../main/engine/cache/cached-patches';
import type { FirmwareCache } from '../../../../main/engine/cache/firmware-cache';
import { CorruptCacheEntryError } from '../../../../main/engine/cache/verified-bundle';
import { testReleaseKey } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

/**
 * Issue 30: the cache index keeps each bundle's image SHA-256, so listing the cache (and naming its
 * patches by release) opens no bundle; the claim is checked when a bundle is used.
 */

const bench = useFirmwareCacheBench('cache-image-hashes');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface IndexFile {
  format: string;
  entries: Array<Record<string, unknown>>;
}
const indexPath = () => join(bench.dir, 'index.json');
const readIndex = async () => JSON.parse(await readFile(indexPath(), 'utf8')) as IndexFile;
const writeIndex = (index: IndexFile) => writeFile(indexPath(), JSON.stringify(index));

/** Two releases of one EPC firmware in the cache and the patch between their images. */
async function filledCache(): Promise<{
  cache: FirmwareCache;
  base: string;
  target: string;
  bundles: Record<string, string>;
}> {
  const baseImage = makeFirmwareImage('EPC', '1.0.0', 4096);
  const targetImage = makeFirmwareImage('EPC', '1.1.0', 4096);
  targetImage.set(baseImage.subarray(64), 64);
  targetImage[500] = targetImage[500]! ^ 0xff;
  const hex = (bytes: Uint8Array) => new Uint8Array(Buffer.from(sha(bytes), 'hex'));
  const cache = bench.makeCache();
  const bundles: Record<string, string> = {};
  for (const [version, image] of [
    ['1.0.0', baseImage],
    ['1.1.0', targetImage],
  ] as const) {
    const entry = await cache.put(
      buildFirmwareBundle({ deviceType: 'EPC', version, image, releaseKeyPem: testReleaseKey.privateKeyPem }),
      { source: `file ${version}.zip` },
    );
    bundles[version] = entry.sha256;
  }
  await cache.patches.put(
    createFirmwarePatch(baseImage, targetImage, { baseSha256: hex(baseImage), targetSha256: hex(targetImage) }),
  );
  return { cache, base: sha(baseImage), target: sha(targetImage), bundles };
}

async function flipLastByte(path: string): Promise<void> {
  const bytes = await readFile(path);
  bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
  await writeFile(path, bytes);
}

describe('the firmware cache index keeps each bundle’s image SHA-256', () => {
  it('records the image hash when a bundle is added', async () => {
    const { base, target, bundles } = await filledCache();
    const index = await readIndex();
    expect(Object.fromEntries(index.entries.map((e) => [e['sha256'], e['imageSha256']]))).toEqual({
      [bundles['1.0.0']!]: base,
      [bundles['1.1.0']!]: target,
    });
  });

  it('lists bundles and names patches without opening a bundle: a tampered bundle is still listed, and refused on use', async () => {
    const { cache, bundles } = await filledCache();
    await flipLastByte(cache.blobPath(bundles['1.0.0']!));
    const fresh = bench.makeCache();
    const listed = await fresh.list();
    expect(listed.map((e) => e.version)).toEqual(['1.1.0', '1.0.0']);
    // Naming the patch needs both images' hashes: taken from the index, the damaged bundle is not read.
    expect((await cachedPatches(fresh, listed)).map((p) => [p.fromVersion, p.toVersion])).toEqual([['1.0.0', '1.1.0']]);
    expect(await fresh.quarantined()).toEqual([]);
    // Used, it is hashed and refused.
    await expect(fresh.get(bundles['1.0.0']!)).rejects.toBeInstanceOf(CorruptCacheEntryError);
    expect(await fresh.quarantined()).toHaveLength(1);
    expect((await fresh.list()).map((e) => e.version)).toEqual(['1.1.0']);
  });

  it('an index written before it kept image hashes still works, and gains them', async () => {
    const { bundles, base, target } = await filledCache();
    const old = await readIndex();
    await writeIndex({ ...old, entries: old.entries.map(({ imageSha256: _dropped, ...rest }) => rest) });
    const cache = bench.makeCache();
    const listed = await cache.list();
    expect(listed.every((e) => e.imageSha256 === undefined)).toBe(true);
    expect((await cachedPatches(cache, listed)).map((p) => [p.fromVersion, p.toVersion])).toEqual([['1.0.0', '1.1.0']]);
    const gained = await readIndex();
    expect(Object.fromEntries(gained.entries.map((e) => [e['sha256'], e['imageSha256']]))).toEqual({
      [bundles['1.0.0']!]: base,
      [bundles['1.1.0']!]: target,
    });
  });

  it('refuses to use a bundle whose image is not the one the index recorded', async () => {
    const { bundles, target } = await filledCache();
    const index = await readIndex();
    await writeIndex({
      ...index,
      entries: index.entries.map((e) => (e['sha256'] === bundles['1.0.0'] ? { ...e, imageSha256: target } : e)),
    });
    const cache = bench.makeCache();
    const refused = await cache.get(bundles['1.0.0']!).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CorruptCacheEntryError);
    expect((refused as CorruptCacheEntryError).reason).toMatch(
      /image's SHA-256 is not the one the cache index recorded/,
    );
    expect((await cache.get(bundles['1.1.0']!))?.bundle.version).toBe('1.1.0');
  });
});
