import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeFirmwareImageHeader, FIRMWARE_IMAGE_HEADER_SIZE } from '../../../domain/files/firmware-image';
import { createFirmwarePatch } from '../../../domain/files/firmware-patch';
import { SerialLink } from '../../../main/devices/links/serial-link';
import { applyFirmware, uploadFirmware, type UploadProgress } from '../../../main/devices/operations/firmware';
import { identify } from '../../../main/devices/operations/identify';
import { DeviceSession } from '../../../main/devices/session';
import type { SimulatedDeviceOptions } from '../../../simulator';
import { signedManifestFor } from '../../fixtures/release-key';
import { startDevice, uniqueSerial, useDeviceBench } from './helpers/simulated';

const bench = useDeviceBench('coded-firmware');

const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * A small image that compresses like code (repeated opcodes, varying operands): a test fixture,
 * not a figure. `edits` changes a few words, as a later release of the same firmware would.
 */
function codeLikeImage(version: string, words: number, edits = 0): Uint8Array {
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + words * 4);
  image.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version, bodyLength: words * 4 }));
  let state = 12345;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const at = FIRMWARE_IMAGE_HEADER_SIZE + i * 4;
    image[at] = [0x2d, 0xe9, 0x4f, 0xf0][state % 4]!;
    image[at + 1] = 0xe9;
    image[at + 2] = (state >>> 8) & 0x0f;
    image[at + 3] = i % 7 === 0 ? (state >>> 16) & 0xff : 0x00;
  }
  for (let e = 0; e < edits; e++) image[FIRMWARE_IMAGE_HEADER_SIZE + ((e * 997) % (words * 4))]! ^= 0x5a;
  return image;
}

async function attach(options: Partial<SimulatedDeviceOptions> = {}) {
  const device = await startDevice(bench.dir, { serialNumber: uniqueSerial('EPC'), ...options });
  const session = await DeviceSession.open(new SerialLink({ path: device.descriptor.path!, baudRate: 921600 }), {
    reconnectTimeoutMs: 30_000,
  });
  bench.keep(device, session);
  return { device, session };
}

const upload = (
  session: DeviceSession,
  image: Uint8Array,
  version: string,
  extra: Parameters<typeof uploadFirmware>[2] extends infer O ? Partial<O> : never = {},
) => uploadFirmware(session, image, { signedManifest: signedManifestFor(image), version, deviceType: 'EPC', ...extra });

/** A device that runs `image` (uploaded and applied), as one whose next update may be a patch from it. */
async function attachRunning(image: Uint8Array, version: string) {
  const attached = await attach();
  await upload(attached.session, image, version);
  await applyFirmware(attached.session, { version });
  return attached;
}

describe('coded firmware transfer over a pty', () => {
  it('deflates for a device that advertises deflate: fewer bytes on the wire, the same verified image, progress naming the coding', async () => {
    const { device, session } = await attach();
    const image = codeLikeImage('3.0.0', 8 * 1024);
    const progress: UploadProgress[] = [];
    const result = await upload(session, image, '3.0.0', { onProgress: (p) => progress.push(p) });
    expect(result.coding).toBe('deflate');
    expect(result.wireBytes).toBeLessThan(image.length / 2);
    expect(device.state().upload).toMatchObject({
      state: 'received',
      sha256: hex(sha256(image)),
      coding: { name: 'deflate', size: result.wireBytes },
    });
    expect(progress.at(-1)).toMatchObject({
      bytes: image.length,
      total: image.length,
      coding: 'deflate',
      wireTotal: result.wireBytes,
    });
    expect((await applyFirmware(session, { version: '3.0.0' })).firmwareVersion).toBe('3.0.0');
    expect(hex((await identify(session)).imageSha256!)).toBe(hex(sha256(image)));
  });

  it('sends identity, with no coding in the announce, to a device that advertises none', async () => {
    const { device, session } = await attach({ codings: [] });
    const info = await identify(session);
    expect(info.codings).toBeUndefined();
    const image = codeLikeImage('3.0.1', 2 * 1024);
    const result = await upload(session, image, '3.0.1');
    expect(result).toMatchObject({ coding: 'identity', wireBytes: image.length });
    expect(device.state().upload?.coding).toBeUndefined();
    expect(device.state().upload?.state).toBe('received');
  });

  it('sends a patch from the running image, and the device builds the exact target from its slot', async () => {
    const a = codeLikeImage('4.0.0', 8 * 1024);
    const { device, session } = await attachRunning(a, '4.0.0');
    const b = codeLikeImage('4.1.0', 8 * 1024 + 64, 20);
    const patch = createFirmwarePatch(a, b, { baseSha256: sha256(a), targetSha256: sha256(b) });
    const delta = await upload(session, b, '4.1.0', { patches: [{ baseSha256: hex(sha256(a)), patch }] });
    expect(delta.coding).toBe('delta');
    expect(delta.wireBytes).toBeLessThan(deflateRawSync(b, { level: 9 }).length / 4);
    expect(device.state().upload).toMatchObject({
      state: 'received',
      sha256: hex(sha256(b)),
      coding: { name: 'delta' },
    });
    expect((await applyFirmware(session, { version: '4.1.0' })).firmwareVersion).toBe('4.1.0');
  });

  /** Patches the device cannot use, each made from the image it runs and the one to send: the full image goes instead, with a note saying why. */
  const unusablePatches = [
    {
      what: 'names another base than the device runs',
      // A stale offer: filed under the running image's hash, but built from another image.
      patch: (running: Uint8Array, target: Uint8Array) => {
        const other = codeLikeImage('5.0.1', 4 * 1024, 3);
        return createFirmwarePatch(other, target, { baseSha256: sha256(other), targetSha256: sha256(target) });
      },
      note: /does not run the image the patch applies to; the full image was sent/,
    },
    {
      what: 'does not build the signed image',
      // Names the right base and target, but builds other bytes.
      patch: (running: Uint8Array, target: Uint8Array) =>
        createFirmwarePatch(running, codeLikeImage('5.1.0', 4 * 1024, 10), {
          baseSha256: sha256(running),
          targetSha256: sha256(target),
        }),
      note: /The patch did not build the signed image .* \(FW_HASH_MISMATCH\); the full image was sent instead/,
    },
  ];

  it.each(unusablePatches)(
    'falls back to the full deflated image, with a note, when the patch $what',
    async ({ patch, note }) => {
      const running = codeLikeImage('5.0.0', 4 * 1024);
      const { device, session } = await attachRunning(running, '5.0.0');
      const target = codeLikeImage('5.1.0', 4 * 1024, 9);
      const result = await upload(session, target, '5.1.0', {
        patches: [{ baseSha256: hex(sha256(running)), patch: patch(running, target) }],
      });
      expect(result.coding).toBe('deflate');
      expect(result.notes.join(' ')).toMatch(note);
      expect(device.state().upload).toMatchObject({ state: 'received', sha256: hex(sha256(target)) });
      expect(device.state().firmwareVersion).toBe('5.0.0');
    },
  );

  it('resumes a deflate upload from the last acknowledged coded offset after a pulled cable', async () => {
    const { device, session } = await attach({ faults: { pullAt: 6 * 1024, replugAfterMs: 200 } });
    const image = codeLikeImage('6.0.0', 16 * 1024);
    const result = await upload(session, image, '6.0.0');
    expect(device.faultStats.pulls).toBe(1);
    expect(result.coding).toBe('deflate');
    expect(result.announcedOffsets).toHaveLength(2);
    expect(result.announcedOffsets[1]).toBeGreaterThan(0);
    expect(device.state().upload).toMatchObject({ state: 'received', sha256: hex(sha256(image)) });
  });
});
