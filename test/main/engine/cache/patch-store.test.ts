import { createHash } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle, readFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../../../domain/files/firmware-image';
import { createFirmwarePatch } from '../../../../domain/files/firmware-patch';
import type { FirmwarePatchRecord } from '../../../../domain/files/firmware-patch-record';
import type { FirmwareSource } from '../../../../main/engine/cache/firmware-source';
import type { ReleaseKeySource } from '../../../../main/engine/cache/release-key-store';
import { cachedPatches } from '../../../../main/engine/cache/cached-patches';
import { prefetchFirmware } from '../../../../main/engine/cache/prefetch';
import { resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { NetworkError } from '../../../../main/cloud';
import { testReleaseKey } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('patch-store');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex, 'hex'));

/** Two releases of one firmware, the second a few bytes off the first, and the patch between them. */
function releases() {
  const base = makeFirmwareImage('EPC', '1.0.0', 4096);
  const target = makeFirmwareImage('EPC', '1.1.0', 4096);
  target.set(base.subarray(64), 64);
  target[500] = target[500]! ^ 0xff;
  const patch = createFirmwarePatch(base, target, {
    baseSha256: bytesOf(sha(base)),
    targetSha256: bytesOf(sha(target)),
  });
  const bundle = buildFirmwareBundle({
    deviceType: 'EPC',
    version: '1.1.0',
    image: target,
    releaseKeyPem: testReleaseKey.privateKeyPem,
  });
  const record: FirmwarePatchRecord = {
    deviceType: 'EPC',
    fromVersion: '1.0.0',
    toVersion: '1.1.0',
    baseSha256: sha(base),
    targetSha256: sha(target),
    size: patch.length,
  };
  return { base, target, patch, bundle, record };
}

function source(
  r: ReturnType<typeof releases>,
  offline = false,
): FirmwareSource & ReleaseKeySource & { patchFetches: number } {
  const request = { method: 'GET', path: '/x' };
  const answer = async <T>(value: T): Promise<T> => {
    if (offline) throw new NetworkError('unreachable', request);
    return value;
  };
  const src = {
    baseUrl: 'http://service.test',
    orgId: 'o',
    patchFetches: 0,
    devices: {
      listAll: () => (async function* () {})(),
      firmwareVersion: () => answer({ deviceType: 'EPC' as const, version: '1.1.0' }),
      firmwareVersionByType: () => answer({ deviceType: 'EPC' as const, version: '1.1.0' }),
      fetchFirmware: () => answer({ bytes: r.bundle, syncId: undefined, headers: new Headers() }),
      fetchFirmwareByType: () => answer({ bytes: r.bundle, syncId: undefined, headers: new Headers() }),
    },
    // The key that signed the releases, so that a prefetch checks them as a job would.
    firmwareReleaseKeys: () =>
      answer([
        {
          keyId: testReleaseKey.keyId,
          name: 'test release key',
          algorithm: 'Ed25519' as const,
          publicKeyPem: testReleaseKey.publicKeyPem,
          trustedAt: '2025-01-01T00:00:00.000Z',
        },
      ]),
    firmwarePatches: {
      list: () => answer([r.record]),
      fetch: async () => {
        src.patchFetches++;
        return answer({ bytes: r.patch, toVersion: '1.1.0', headers: new Headers() });
      },
    },
  };
  return src;
}

describe('firmware patches in the offline cache', () => {
  it('keeps the service patches beside the bundle and offers them again without the service', async () => {
    const r = releases();
    const cache = bench.makeCache();
    const online = source(r);
    const first = await resolveFirmware(cache, online, { deviceType: 'EPC' });
    expect(first.origin).toBe('download');
    expect(first.patches).toMatchObject([{ baseSha256: sha(r.base), targetSha256: sha(r.target), patch: r.patch }]);
    // Each patch travels with the stream made of it once, as it entered the cache.
    expect(sha(inflateRawSync(first.patches[0]!.deflated!.bytes))).toBe(sha(r.patch));
    // Held already: not fetched again.
    await resolveFirmware(cache, online, { deviceType: 'EPC' });
    expect(online.patchFetches).toBe(1);
    const offline = await resolveFirmware(bench.makeCache(), source(r, true), { deviceType: 'EPC' });
    expect(offline.origin).toBe('offline-cache');
    expect(readFirmwareBundle(offline.bytes).imageSha256).toBe(sha(r.target));
    expect(offline.patches.map((p) => p.baseSha256)).toEqual([sha(r.base)]);
  });

  it('keeps the patches to the latest image when the cache is filled before going offline (cache prefetch), once', async () => {
    const r = releases();
    const online = source(r);
    const first = await prefetchFirmware(bench.makeCache(), online, ['EPC']);
    expect(first.fetched.map((e) => e.version)).toEqual(['1.1.0']);
    expect(first.patches).toEqual([r.record]);
    const again = await prefetchFirmware(bench.makeCache(), online, ['EPC']);
    expect(again).toMatchObject({ fetched: [], upToDate: [{ deviceType: 'EPC', version: '1.1.0' }], patches: [] });
    expect(online.patchFetches).toBe(1);
    // In the plant: the patch is there for a device on 1.0.0.
    const offline = await resolveFirmware(bench.makeCache(), source(r, true), { deviceType: 'EPC' });
    expect(offline.origin).toBe('offline-cache');
    expect(offline.patches.map((p) => [p.baseSha256, p.targetSha256])).toEqual([[sha(r.base), sha(r.target)]]);
  });

  it('lists the patches it keeps by release, naming a release it does not hold by its image hash', async () => {
    const r = releases();
    const cache = bench.makeCache();
    expect(await cachedPatches(cache, await cache.list())).toEqual([]);
    await prefetchFirmware(cache, source(r), ['EPC']);
    const held = {
      deviceType: 'EPC',
      toVersion: '1.1.0',
      baseSha256: sha(r.base),
      targetSha256: sha(r.target),
      size: r.patch.length,
    };
    expect(await cachedPatches(cache, await cache.list())).toEqual([{ ...held, fromVersion: null }]);
    await cache.put(
      buildFirmwareBundle({
        deviceType: 'EPC',
        version: '1.0.0',
        image: r.base,
        releaseKeyPem: testReleaseKey.privateKeyPem,
      }),
      { source: 'file 1.0.0.zip' },
    );
    expect(await cachedPatches(cache, await cache.list())).toEqual([{ ...held, fromVersion: '1.0.0' }]);
  });

  it('refuses a patch that joins other images than the service said, and quarantines one damaged on disk', async () => {
    const r = releases();
    const cache = bench.makeCache();
    await expect(cache.patches.put(r.patch, { baseSha256: sha(r.target) })).rejects.toMatchObject({
      code: 'FW_CODING_CORRUPT',
    });
    await cache.patches.put(r.patch);
    const [name] = await readdir(join(bench.dir, 'patches'));
    const damaged = r.patch.slice();
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 1;
    await writeFile(join(bench.dir, 'patches', name!), damaged);
    expect(await cache.patches.to(sha(r.target))).toEqual([]);
    expect(await cache.quarantined()).toHaveLength(1);
  });
});
