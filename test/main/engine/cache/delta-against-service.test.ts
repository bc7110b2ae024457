import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { encodeFirmwareImageHeader } from '../../../../domain/files/firmware-image';
import { releaseKeyFromPem } from '../../../../domain/files/firmware-release-key';
import { FirmwareCache } from '../../../../main/engine/cache/firmware-cache';
import { resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import type { ServiceClient } from '../../../../main/cloud';
import { SerialLink } from '../../../../main/devices/links/serial-link';
import { applyFirmware, uploadFirmware } from '../../../../main/devices/operations/firmware';
import { DeviceSession } from '../../../../main/devices/session';
import { importFirmwareBundle } from '../../../../server/store/firmware';
import { trustReleaseKey } from '../../../../server/store/release-keys';
import { signedManifestFor, testReleaseKey } from '../../../fixtures/release-key';
import { uniqueSerial, useScratchDir } from '../../../fixtures/scratch';
import { startDevice } from '../../../fixtures/simulated-device';
import { startTestService, type TestService } from '../../cloud/service-harness';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** An EPC image whose body compresses like code; `edits` bytes differ, as in a later release. */
function release(version: string, edits: number): Uint8Array {
  const words = 6 * 1024;
  const image = new Uint8Array(64 + words * 4);
  image.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version, bodyLength: words * 4 }));
  let state = 7;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    image.set([0x2d, 0xe9, (state >>> 8) & 0x0f, i % 5 === 0 ? (state >>> 16) & 0xff : 0], 64 + i * 4);
  }
  for (let e = 0; e < edits; e++) image[64 + e * 331] = image[64 + e * 331]! ^ 0x5a;
  return image;
}

const scratch = useScratchDir('delta-against-service');
let service: TestService;
let client: ServiceClient;

beforeAll(async () => {
  service = await startTestService();
  client = service.client({ retry: { attempts: 1 } });
});
afterAll(async () => {
  await service?.dispose();
});

describe('a firmware patch from the service to the device', () => {
  it('is made at import, fetched into the cache with the bundle, and builds the release on a device running the one before', async () => {
    const db = service.running!.db;
    await trustReleaseKey(db, releaseKeyFromPem(testReleaseKey.publicKeyPem, 'delta test key'));
    const before = release('2.0.0', 0);
    const latest = release('2.1.0', 12);
    for (const [version, image] of [
      ['2.0.0', before],
      ['2.1.0', latest],
    ] as const) {
      const bytes = buildFirmwareBundle({
        deviceType: 'EPC',
        version,
        image,
        releaseKeyPem: testReleaseKey.privateKeyPem,
      });
      await db.transaction((tx) => importFirmwareBundle(tx, bytes, { deviceType: 'EPC', version }));
    }

    const resolved = await resolveFirmware(new FirmwareCache({ dir: join(scratch.dir, 'cache') }), client, {
      deviceType: 'EPC',
    });
    expect(resolved.bundle.version).toBe('2.1.0');
    expect(resolved.patches.map((p) => p.baseSha256)).toEqual([sha(before)]);

    const device = await startDevice(scratch.dir, { serialNumber: uniqueSerial('EPC') });
    const session = await DeviceSession.open(new SerialLink({ path: device.descriptor.path!, baudRate: 921600 }), {
      reconnectTimeoutMs: 30_000,
    });
    try {
      await uploadFirmware(session, before, {
        version: '2.0.0',
        deviceType: 'EPC',
        signedManifest: signedManifestFor(before),
      });
      await applyFirmware(session, { version: '2.0.0' });
      const result = await uploadFirmware(session, resolved.bundle.image, {
        version: '2.1.0',
        deviceType: 'EPC',
        signedManifest: signedManifestFor(latest),
        patches: resolved.patches,
      });
      expect(result.coding).toBe('delta');
      expect(result.wireBytes).toBeLessThan(latest.length / 10);
      // The patch went as the stream the cache made of it once (zopfli), not deflated again at upload.
      expect(result.wireBytes).toBe(resolved.patches[0]!.deflated!.bytes.length);
      expect((await applyFirmware(session, { version: '2.1.0' })).firmwareVersion).toBe('2.1.0');
    } finally {
      await session.close().catch(() => undefined);
      await device.stop();
    }
  });
});
