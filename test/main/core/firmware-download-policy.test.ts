import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateReleaseKeyPair } from '../../../domain/files/firmware-release-key';
import { invokeForWire } from '../../../contract/index';
import { cliCoreFor } from '../../fixtures/cli-core';
import { hostileProxyPerFile, type Tamper } from '../../fixtures/hostile-proxy';
import { signedTestBundle } from '../../fixtures/release-key';
import { useScratchDirPerTest } from '../../fixtures/scratch';
import { coresPerFile, demoServicePerFile, scriptedDeviceSource } from '../../fixtures/test-core';

/**
 * Issue 27: one policy keeps firmware for offline use, whoever asks (the Firmware screen's
 * `firmware.download`, the CLI's `downloads.firmware`, `cache.prefetch`): the bundle is checked as a
 * job checks it before it is kept, and a version the cache holds from this service and organization
 * is not downloaded again. Through a hostile proxy on 127.0.0.1 that can swap the bundle.
 */

// Registered in this order, so the cores close first, then the proxy and the service, and the scratch directory last.
const scratch = useScratchDirPerTest('firmware-download-policy');
const demo = demoServicePerFile();
const proxy = hostileProxyPerFile(() => demo.service.port);
const cores = coresPerFile();

const isFirmware = (path: string) => /\/devices\/types\/EPC\/firmware$/.test(path);
const firmwareFetches = () => proxy.requests.filter((line) => line.startsWith('GET ') && isFirmware(line)).length;
const forged = Buffer.from(signedTestBundle('EPC', '1.1.0', 2048, { key: generateReleaseKeyPair() }));
/** The attacker swaps the bundle and announces its hash, so that only the signature can give it away. */
const swapped: Tamper = (path, upstream) =>
  isFirmware(path)
    ? {
        headers: { ...upstream.headers, 'x-firmware-sha256': createHash('sha256').update(forged).digest('hex') },
        body: forged,
      }
    : undefined;

describe('keeping firmware for offline use: one policy', () => {
  it("the Firmware screen's download refuses a bundle no trusted key signed and keeps nothing; a genuine one once", async () => {
    proxy.requests.length = 0;
    const core = await cores.open(join(scratch.dir, 'app'), { host: 'test', deviceSource: scriptedDeviceSource() });
    const signedIn = await invokeForWire(core, 'session.signIn', {
      serviceUrl: proxy.url(),
      orgId: 'demo',
      apiKey: demo.adminKey,
      remember: false,
    });
    expect(signedIn.ok).toBe(true);

    proxy.tamper = swapped;
    const refused = await invokeForWire(core, 'firmware.download', { deviceType: 'EPC' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'SERVICE_ERROR',
        message: expect.stringMatching(/^The firmware the service sent was refused and nothing was kept: /),
        violations: [{ code: 'FW_UNTRUSTED_KEY' }],
      },
    });
    const overview = await core.invoke('firmware.overview', {});
    expect(overview.find((t) => t.deviceType === 'EPC')).toMatchObject({ cached: [], latestCached: false });

    proxy.tamper = () => undefined;
    const kept = await invokeForWire(core, 'firmware.download', { deviceType: 'EPC' });
    expect(kept).toMatchObject({ ok: true, value: { deviceType: 'EPC', version: '1.1.0' } });
    const again = await invokeForWire(core, 'firmware.download', { deviceType: 'EPC' });
    expect(again).toMatchObject({ ok: true, value: { deviceType: 'EPC', version: '1.1.0' } });
    // The forged one and the genuine one: the second download took the kept bundle.
    expect(firmwareFetches()).toBe(2);
  });

  it("the CLI's download takes a version it keeps from the cache, and a prefetch after it finds it up to date", async () => {
    proxy.requests.length = 0;
    proxy.tamper = () => undefined;
    const cli = cliCoreFor(join(scratch.dir, 'cli'), { serviceUrl: proxy.url(), orgId: 'demo', apiKey: demo.adminKey });
    try {
      const first = await cli.invoke('downloads.firmware', { deviceType: 'EPC' });
      const second = await cli.invoke('downloads.firmware', { deviceType: 'EPC' });
      expect(first).toMatchObject({ outcome: 'checked', version: '1.1.0' });
      // Answered whole from the cache, checked again (the signer is named), not downloaded again.
      expect(second).toMatchObject({
        outcome: 'checked',
        version: '1.1.0',
        sha256: (first as { sha256: string }).sha256,
      });
      expect((second as { signedBy: { keyId: string } }).signedBy.keyId).not.toBe('');
      expect(firmwareFetches()).toBe(1);

      const prefetch = await cli.invoke('cache.prefetch', { deviceTypes: ['EPC'] });
      expect(prefetch).toMatchObject({
        fetched: [],
        upToDate: [{ deviceType: 'EPC', version: '1.1.0' }],
        failedFirmware: [],
      });
      expect(firmwareFetches()).toBe(1);

      // A bundle swapped in the cache's place is refused by the prefetch as by the download.
      const other = cliCoreFor(join(scratch.dir, 'cli-2'), {
        serviceUrl: proxy.url(),
        orgId: 'demo',
        apiKey: demo.adminKey,
      });
      try {
        proxy.tamper = swapped;
        const refused = await other.invoke('cache.prefetch', { deviceTypes: ['EPC'] });
        expect(refused).toMatchObject({
          fetched: [],
          upToDate: [],
          failedFirmware: [{ deviceType: 'EPC', message: expect.stringMatching(/trust/i) }],
        });
        expect((await other.invoke('cache.contents', {})).firmware).toEqual([]);
      } finally {
        await other.close();
      }
    } finally {
      await cli.close();
    }
  });
});
