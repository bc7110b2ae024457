import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileFormatError } from '../../../../domain/files/file-error';
import { sha256Hex } from '../../../../domain/files/firmware-bundle';
import { FIRMWARE_BUNDLE_LIMITS } from '../../../../domain/files/zip-limits';
import { NetworkError } from '../../../../main/cloud';
import type { FirmwareSource } from '../../../../main/engine/cache/firmware-source';
import { NoFirmwareAvailableError, resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { signedTestBundle as bundle } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('fwcache-safety');
const { makeCache } = bench;

const request = { method: 'GET', path: '/x' };

/** A service stand-in for one organization: online with `latest`, or failing with `down`. */
function service(
  baseUrl: string,
  orgId: string,
  options: { latest?: string; down?: Error; announce?: (bytes: Uint8Array) => string } = {},
): FirmwareSource {
  const latest = options.latest ?? '2.0.0';
  const answer = async <T>(value: () => T): Promise<T> => {
    if (options.down) throw options.down;
    return value();
  };
  const file = () => {
    const bytes = bundle('EPC', latest);
    return {
      bytes,
      syncId: undefined,
      headers: new Headers({ 'x-firmware-sha256': options.announce?.(bytes) ?? sha256Hex(bytes) }),
    };
  };
  return {
    baseUrl,
    orgId,
    devices: {
      listAll: () => (async function* () {})(),
      firmwareVersion: () => answer(() => ({ deviceType: 'EPC' as const, version: latest })),
      firmwareVersionByType: () => answer(() => ({ deviceType: 'EPC' as const, version: latest })),
      fetchFirmware: () => answer(file),
      fetchFirmwareByType: () => answer(file),
    },
  };
}

const unreachable = new NetworkError('unreachable', request);

describe('firmware cache: keyed by service and organization', () => {
  it('a bundle cached for organization A is not used for organization B offline, nor for A at another service', async () => {
    const cache = makeCache();
    const online = await resolveFirmware(cache, service('http://a.test', 'org-a'), {
      deviceType: 'EPC',
      serialNumber: 'EPC1',
    });
    expect(online.origin).toBe('download');
    expect(online.entry.origins).toEqual([{ serviceUrl: 'http://a.test', orgId: 'org-a' }]);

    const offlineA = await resolveFirmware(cache, service('http://a.test', 'org-a', { down: unreachable }), {
      deviceType: 'EPC',
      serialNumber: 'EPC1',
    });
    expect(offlineA.origin).toBe('offline-cache');
    expect(offlineA.entry.sha256).toBe(online.entry.sha256);

    await expect(
      resolveFirmware(cache, service('http://a.test', 'org-b', { down: unreachable }), { deviceType: 'EPC' }),
    ).rejects.toBeInstanceOf(NoFirmwareAvailableError);
    await expect(
      resolveFirmware(cache, service('http://other.test', 'org-a', { down: unreachable }), { deviceType: 'EPC' }),
    ).rejects.toThrow(/no EPC firmware from this organization is cached/);
  });

  it('online, organization B downloads for itself even when A cached the same version; the one blob then serves both', async () => {
    const cache = makeCache();
    const a = await resolveFirmware(cache, service('http://s.test', 'org-a'), { deviceType: 'EPC' });
    const b = await resolveFirmware(cache, service('http://s.test', 'org-b'), { deviceType: 'EPC' });
    expect(b.origin).toBe('download');
    expect(b.entry.sha256).toBe(a.entry.sha256);
    expect(b.entry.origins.map((o) => o.orgId)).toEqual(['org-a', 'org-b']);
    expect(await readdir(join(bench.dir, 'blobs'))).toHaveLength(1);
    expect(
      (await resolveFirmware(cache, service('http://s.test', 'org-b', { down: unreachable }), { deviceType: 'EPC' }))
        .origin,
    ).toBe('offline-cache');
  });

  it('refuses a download that does not match the SHA-256 the service announced, and stores nothing', async () => {
    const cache = makeCache();
    const lying = service('http://a.test', 'org-a', { announce: () => 'f'.repeat(64) });
    const error = await resolveFirmware(cache, lying, { deviceType: 'EPC' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileFormatError);
    expect((error as FileFormatError).code).toBe('FW_HASH_MISMATCH');
    expect(await readdir(join(bench.dir, 'blobs'))).toEqual([]);
  });

  it('entries of an index written before origins existed take theirs from their source label', async () => {
    const bytes = bundle('EPC', '1.0.0');
    const sha256 = await makeCache()
      .put(bytes, { source: 'x' })
      .then((e) => e.sha256);
    const old = {
      format: 'provisioner-firmware-cache/1',
      entries: [
        {
          sha256,
          deviceType: 'EPC',
          version: '1.0.0',
          size: bytes.length,
          fetchedAt: '2026-01-01T00:00:00.000Z',
          source: 'service http://a.test/v1/organizations/org%20a/devices/types/EPC/firmware',
        },
      ],
    };
    await writeFile(join(bench.dir, 'index.json'), JSON.stringify(old));
    const [entry] = await makeCache().list();
    expect(entry!.origins).toEqual([{ serviceUrl: 'http://a.test', orgId: 'org a' }]);
    expect(await makeCache().quarantined()).toEqual([]);
  });

  it('reads a bundle stream no further than the largest bundle there can be', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        pulled++;
        yield new Uint8Array(1024 * 1024);
      }
    }
    const error = await makeCache()
      .put(endless(), { source: 'stream' })
      .catch((e: unknown) => e);
    expect((error as FileFormatError).code).toBe('FW_BUNDLE_TOO_LARGE');
    expect(pulled).toBe(FIRMWARE_BUNDLE_LIMITS.maxZipBytes / (1024 * 1024) + 1);
  });
});

describe('firmware cache: a damaged index or bundle is quarantined, never deleted', () => {
  async function filled(): Promise<{ a: string; b: string }> {
    const cache = makeCache();
    const origin = { serviceUrl: 'http://a.test', orgId: 'org-a' };
    const a = await cache.put(bundle('EPC', '1.0.0'), { source: 'x', origin });
    const b = await cache.put(bundle('WESP', '3.0.0'), { source: 'y', origin });
    bench.events.splice(0);
    return { a: a.sha256, b: b.sha256 };
  }

  async function quarantinedFile(): Promise<{ name: string; bytes: Buffer }> {
    const names = await readdir(join(bench.dir, 'quarantine'));
    expect(names).toHaveLength(1);
    return { name: names[0]!, bytes: await readFile(join(bench.dir, 'quarantine', names[0]!)) };
  }

  for (const [what, damage] of [
    ['garbage', (_index: string) => Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42])],
    ['truncated', (index: string) => Buffer.from(index.slice(0, index.length >> 1))],
  ] as const) {
    it(`starts with a ${what} index.json: reports it, keeps its bytes in quarantine, lists every bundle`, async () => {
      const { a, b } = await filled();
      const bad = damage(await readFile(join(bench.dir, 'index.json'), 'utf8'));
      await writeFile(join(bench.dir, 'index.json'), bad);

      const cache = makeCache();
      expect((await cache.list()).map((e) => e.sha256).sort()).toEqual([a, b].sort());
      const reported = bench.events.filter((e) => e.type === 'quarantined');
      expect(reported).toHaveLength(1);
      const file = await quarantinedFile();
      expect(file.name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{6}-index\.json$/);
      expect(file.bytes.equals(bad)).toBe(true);
      expect(reported[0]).toMatchObject({
        file: { from: join(bench.dir, 'index.json'), path: join(bench.dir, 'quarantine', file.name) },
      });
      // A good index is written back: the next start reports nothing.
      bench.events.splice(0);
      expect(await makeCache().list()).toHaveLength(2);
      expect(bench.events.filter((e) => e.type === 'quarantined')).toEqual([]);
    });
  }

  it('keeps the readable entries of a partly damaged index, origins included', async () => {
    const { a, b } = await filled();
    const index = JSON.parse(await readFile(join(bench.dir, 'index.json'), 'utf8')) as {
      entries: Array<Record<string, unknown>>;
    };
    const damagedEntry = index.entries.find((e) => e.sha256 === b)!;
    damagedEntry.size = 'twelve';
    const text = JSON.stringify(index);
    await writeFile(join(bench.dir, 'index.json'), text);

    const entries = await makeCache().list();
    expect(entries.find((e) => e.sha256 === a)?.origins).toEqual([{ serviceUrl: 'http://a.test', orgId: 'org-a' }]);
    // The damaged entry's blob is re-indexed from its manifest, without origins.
    expect(entries.find((e) => e.sha256 === b)).toMatchObject({ deviceType: 'WESP', version: '3.0.0', origins: [] });
    expect((await quarantinedFile()).bytes.toString('utf8')).toBe(text);
  });

  it('moves a corrupt bundle to quarantine with its bytes intact instead of deleting it', async () => {
    const { a } = await filled();
    const path = join(bench.dir, 'blobs', `${a}.zip`);
    const damaged = await readFile(path);
    damaged[damaged.length >> 1]! ^= 0x01;
    await writeFile(path, damaged);

    const cache = makeCache();
    expect(await cache.latest('EPC')).toBeUndefined();
    const evicted = bench.events.find((e) => e.type === 'evicted-corrupt');
    expect(evicted).toMatchObject({ entry: { sha256: a }, reason: 'SHA-256 does not match' });
    const file = await quarantinedFile();
    expect(file.name.endsWith(`-${a}.zip`)).toBe(true);
    expect(file.bytes.equals(damaged)).toBe(true);
    expect((await cache.quarantined()).map((p) => basename(p))).toEqual([file.name]);
    expect((await cache.list()).map((e) => e.deviceType)).toEqual(['WESP']);
  });
});
