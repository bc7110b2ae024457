import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkError, ServiceError } from '../../../../main/cloud';
import { readFirmwareBundle, sha256Hex } from '../../../../domain/files/firmware-bundle';
import type { FirmwareSource } from '../../../../main/engine/cache/firmware-source';
import { CorruptCacheEntryError } from '../../../../main/engine/cache/verified-bundle';
import { NoFirmwareAvailableError, resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { signedTestBundle as bundle } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('fwcache');
const { makeCache } = bench;

describe('firmware cache', () => {
  it('stores a bundle under its SHA-256 with type, version, size, time and source', async () => {
    const cache = makeCache();
    const bytes = bundle('EPC', '2.1.0');
    const entry = await cache.put(bytes, { source: 'test' });
    expect(entry).toEqual({
      sha256: sha256Hex(bytes),
      deviceType: 'EPC',
      version: '2.1.0',
      size: bytes.length,
      fetchedAt: new Date(bench.time.now()).toISOString(),
      source: 'test',
      origins: [],
      imageSha256: sha256Hex(readFirmwareBundle(bytes).image),
    });
    expect(await readdir(join(bench.dir, 'blobs'))).toEqual([`${entry.sha256}.zip`]);
    const index = JSON.parse(await readFile(join(bench.dir, 'index.json'), 'utf8')) as { entries: unknown[] };
    expect(index.entries).toEqual([entry]);
    const got = await makeCache().get(entry.sha256);
    expect(got?.entry).toEqual(entry);
    expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(got?.bundle.version).toBe('2.1.0');
  });

  it('accepts a stream and keeps one copy of identical bytes', async () => {
    const cache = makeCache();
    const bytes = bundle('SRCP', '1.0.0');
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < bytes.length; i += 100) yield bytes.subarray(i, i + 100);
    }
    await cache.put(chunks(), { source: 'stream' });
    bench.time.advance(1000);
    await cache.put(bytes, { source: 'again' });
    const list = await cache.list();
    expect(list).toHaveLength(1);
    expect(list[0]!.source).toBe('again');
  });

  it('refuses a damaged bundle or one of the wrong type before storing it', async () => {
    const cache = makeCache();
    const bytes = bundle('EPC', '2.1.0');
    const damaged = bytes.slice();
    damaged[damaged.length - 30]! ^= 0xff;
    await expect(cache.put(damaged, { source: 'x' })).rejects.toThrow();
    await expect(cache.put(bytes, { source: 'x', expect: { deviceType: 'NSCP' } })).rejects.toThrow(
      /EPC devices, not NSCP/,
    );
    expect(await readdir(join(bench.dir, 'blobs'))).toEqual([]);
  });

  it('detects a file corrupted on disk on read, evicts it and never returns it', async () => {
    const cache = makeCache();
    const older = await cache.put(bundle('EPC', '2.0.0'), { source: 'x' });
    const newer = await cache.put(bundle('EPC', '2.1.0'), { source: 'x' });
    const path = cache.blobPath(newer.sha256);
    const onDisk = await readFile(path);
    onDisk[onDisk.length >> 1]! ^= 0x01; // one flipped bit
    await writeFile(path, onDisk);

    await expect(makeCache().get(newer.sha256)).rejects.toBeInstanceOf(CorruptCacheEntryError);
    expect(bench.events.some((e) => e.type === 'evicted-corrupt' && e.entry.sha256 === newer.sha256)).toBe(true);
    expect(await readdir(join(bench.dir, 'blobs'))).toEqual([`${older.sha256}.zip`]);
    expect(await cache.get(newer.sha256)).toBeUndefined();
  });

  it('latest() skips a corrupt newest bundle and falls back to the next intact one', async () => {
    const cache = makeCache();
    const older = await cache.put(bundle('NSCP', '1.9.9'), { source: 'x' });
    const newer = await cache.put(bundle('NSCP', '1.10.0'), { source: 'x' });
    await writeFile(cache.blobPath(newer.sha256), 'garbage');
    const latest = await cache.latest('NSCP');
    expect(latest?.entry.sha256).toBe(older.sha256);
    expect(
      bench.events
        .filter((e) => e.type === 'evicted-corrupt')
        .map((e) => (e as { entry: { version: string } }).entry.version),
    ).toEqual(['1.10.0']);
  });

  it('picks the newest version per type, 2.10.0 after 2.9.1', async () => {
    const cache = makeCache();
    await cache.put(bundle('EPC', '2.9.1'), { source: 'x' });
    await cache.put(bundle('EPC', '2.10.0'), { source: 'x' });
    await cache.put(bundle('WESP', '3.0.0'), { source: 'x' });
    expect((await cache.latest('EPC'))?.entry.version).toBe('2.10.0');
    expect((await cache.find('EPC', '2.9.1'))?.entry.version).toBe('2.9.1');
    expect(await cache.latest('SRCP')).toBeUndefined();
    expect((await cache.list()).map((e) => `${e.deviceType} ${e.version}`)).toEqual([
      'EPC 2.10.0',
      'EPC 2.9.1',
      'WESP 3.0.0',
    ]);
  });

  it('prunes to the newest N per type, deleting blobs', async () => {
    const cache = makeCache();
    for (const v of ['1.0.0', '1.1.0', '1.2.0']) await cache.put(bundle('EPC', v), { source: 'x' });
    for (const v of ['5.0.0', '4.0.0']) await cache.put(bundle('SRCP', v), { source: 'x' });
    const removed = await cache.prune({ keepPerType: 1 });
    expect(removed.map((e) => `${e.deviceType} ${e.version}`).sort()).toEqual(['EPC 1.0.0', 'EPC 1.1.0', 'SRCP 4.0.0']);
    expect((await cache.list()).map((e) => `${e.deviceType} ${e.version}`)).toEqual(['EPC 1.2.0', 'SRCP 5.0.0']);
    expect(await readdir(join(bench.dir, 'blobs'))).toHaveLength(2);
  });

  it('rebuilds a lost or damaged index from the blobs', async () => {
    const cache = makeCache();
    const entry = await cache.put(bundle('WESP', '3.2.1'), { source: 'x' });
    await writeFile(join(bench.dir, 'index.json'), '{ torn');
    const reopened = makeCache();
    const list = await reopened.list();
    expect(list.map((e) => [e.sha256, e.deviceType, e.version])).toEqual([[entry.sha256, 'WESP', '3.2.1']]);
    expect((await reopened.latest('WESP'))?.entry.sha256).toBe(entry.sha256);
  });

  it('verifyAll re-hashes everything and evicts what is corrupt', async () => {
    const cache = makeCache();
    const a = await cache.put(bundle('EPC', '1.0.0'), { source: 'x' });
    const b = await cache.put(bundle('EPC', '1.1.0'), { source: 'x' });
    await writeFile(cache.blobPath(a.sha256), Buffer.alloc(10));
    const evicted = await cache.verifyAll();
    expect(evicted.map((e) => e.entry.sha256)).toEqual([a.sha256]);
    expect((await cache.list()).map((e) => e.sha256)).toEqual([b.sha256]);
  });
});

describe('firmware resolution (service stand-ins)', () => {
  const request = { method: 'GET', path: '/x' };
  function source(fail: Error | undefined, latest = '2.0.0'): FirmwareSource {
    const answer = async <T>(value: T): Promise<T> => {
      if (fail) throw fail;
      return value;
    };
    return {
      baseUrl: 'http://service.test',
      orgId: 'o',
      devices: {
        listAll: () => (async function* () {})(),
        firmwareVersion: () => answer({ deviceType: 'EPC' as const, version: latest }),
        firmwareVersionByType: () => answer({ deviceType: 'EPC' as const, version: latest }),
        fetchFirmware: () => answer({ bytes: bundle('EPC', latest), syncId: undefined, headers: new Headers() }),
        fetchFirmwareByType: () => answer({ bytes: bundle('EPC', latest), syncId: undefined, headers: new Headers() }),
      },
    };
  }

  const origin = { serviceUrl: 'http://service.test', orgId: 'o' };

  it('falls back to the newest cached bundle on a network error or a 5xx, and says so', async () => {
    const cache = makeCache();
    await cache.put(bundle('EPC', '1.0.0'), { source: 'x', origin });
    await cache.put(bundle('EPC', '1.5.0'), { source: 'x', origin });
    const offline = await resolveFirmware(cache, source(new NetworkError('unreachable', request)), {
      deviceType: 'EPC',
      serialNumber: 'EPC1',
    });
    expect(offline).toMatchObject({ origin: 'offline-cache', latestVersion: undefined });
    expect(offline.entry.version).toBe('1.5.0');
    expect(offline.notice).toMatch(
      /^The service is unreachable .*newest cached EPC firmware, version 1\.5\.0, fetched /,
    );
    const broken = await resolveFirmware(cache, source(new ServiceError(503, [], request)), { deviceType: 'EPC' });
    expect(broken.origin).toBe('offline-cache');
    expect(broken.notice).toMatch(/unavailable \(HTTP 503\)/);
  });

  it('passes a 4xx on instead of hiding it behind the cache', async () => {
    const cache = makeCache();
    await cache.put(bundle('EPC', '1.0.0'), { source: 'x', origin });
    const notFound = new ServiceError(404, [{ code: 'DEVICE_NOT_REGISTERED', message: 'no' }], request);
    await expect(resolveFirmware(cache, source(notFound), { deviceType: 'EPC', serialNumber: 'X' })).rejects.toBe(
      notFound,
    );
  });

  it('downloads and caches when online and not cached, then serves from the cache', async () => {
    const cache = makeCache();
    const first = await resolveFirmware(cache, source(undefined, '2.0.0'), { deviceType: 'EPC' });
    expect(first).toMatchObject({ origin: 'download', latestVersion: '2.0.0' });
    expect(first.entry.source).toBe('service http://service.test/v1/organizations/o/devices/types/EPC/firmware');
    expect((await resolveFirmware(cache, source(undefined, '2.0.0'), { deviceType: 'EPC' })).origin).toBe('cache');
  });

  it('with nothing cached and no service, refuses with a clear error', async () => {
    await expect(
      resolveFirmware(makeCache(), source(new NetworkError('timeout', request)), { deviceType: 'EPC' }),
    ).rejects.toBeInstanceOf(NoFirmwareAvailableError);
  });
});
