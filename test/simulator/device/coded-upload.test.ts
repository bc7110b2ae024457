import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  encodeFirmwareImageHeader,
  FIRMWARE_IMAGE_HEADER_SIZE,
  parseFirmwareImageHeader,
} from '../../../domain/files/firmware-image';
import { createFirmwarePatch } from '../../../domain/files/firmware-patch';
import { releaseKeyFromPem } from '../../../domain/files/firmware-release-key';
import type { AnnouncedCoding } from '../../../protocol/payloads';
import { DeviceError } from '../../../simulator/device/errors';
import { FirmwareUpdate } from '../../../simulator/device/firmware-update';
import { StateStore } from '../../../simulator/device/state';
import { FlashModel } from '../../../simulator/wire/flash';
import { signedManifestFor, testReleaseKey } from '../../fixtures/release-key';
import { uniqueSerial, useScratchDir } from '../../fixtures/scratch';

const scratch = useScratchDir('coded-upload');
const BLOCK = 256;
const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

/** A compressible test image (a fixture: figures come from real firmware in bench/). */
function image(version: string, bodyLength: number, salt = 0): Uint8Array {
  const out = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + bodyLength);
  out.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version, bodyLength }));
  for (let i = 0; i < bodyLength; i++)
    out[FIRMWARE_IMAGE_HEADER_SIZE + i] = (i % 13 === 0 ? (i * 31 + salt) & 0xff : i % 7) & 0xff;
  return out;
}

async function device(): Promise<{ firmware: FirmwareUpdate; store: StateStore }> {
  const serialNumber = uniqueSerial('EPC');
  const store = await StateStore.open(join(scratch.dir, serialNumber), {
    serialNumber,
    deviceType: 'EPC',
    model: 'EPC-E4',
    firmwareVersion: '1.0.0',
  });
  const firmware = new FirmwareUpdate({
    store,
    deviceType: 'EPC',
    releaseKeys: [releaseKeyFromPem(testReleaseKey.publicKeyPem, 'test')],
    blockSize: BLOCK,
    maxInFlight: 4,
    maxImageSize: 1 << 20,
    codings: [
      { name: 'deflate', windowBits: 12 },
      { name: 'delta', windowBits: 12 },
    ],
    flash: new FlashModel(100_000_000),
    onChange: () => undefined,
  });
  return { firmware, store };
}

function announce(firmware: FirmwareUpdate, img: Uint8Array, coding?: AnnouncedCoding) {
  return firmware.announce({
    size: img.length,
    sha256: sha256(img),
    version: parseFirmwareImageHeader(img).version,
    deviceType: 'EPC',
    signedManifest: signedManifestFor(img),
    ...(coding ? { coding } : {}),
  });
}

/** Sends `wire` in order from `from`, stopping before `until`; returns the last answer. */
async function send(firmware: FirmwareUpdate, wire: Uint8Array, from = 0, until = wire.length) {
  let last: Awaited<ReturnType<FirmwareUpdate['writeBlock']>> = 'continue';
  for (let offset = from; offset < until; offset += BLOCK) {
    const bytes = wire.subarray(offset, Math.min(offset + BLOCK, wire.length));
    last = await firmware.writeBlock(offset, bytes, offset + bytes.length < wire.length);
  }
  return last;
}

const deflated = (bytes: Uint8Array) => new Uint8Array(deflateRawSync(bytes, { level: 9, windowBits: 12 }));

async function installed(firmware: FirmwareUpdate, img: Uint8Array): Promise<void> {
  await announce(firmware, img);
  await send(firmware, img);
  await firmware.applied(await firmware.verifyForApply());
}

describe('a coded upload on the device', () => {
  it('decodes deflate into the staged bank and verifies the decoded image, holding the window and about one block', async () => {
    const { firmware, store } = await device();
    const img = image('2.0.0', 40_000);
    const wire = deflated(img);
    await announce(firmware, img, { name: 'deflate', size: wire.length, windowBits: 12 });
    const done = await send(firmware, wire);
    expect(done).toMatchObject({ received: img.length });
    expect(store.current.upload).toMatchObject({ state: 'received', coding: { name: 'deflate', decoded: img.length } });
    expect(firmware.status()).toMatchObject({
      state: 'received',
      received: img.length,
      coding: 'deflate',
      wireReceived: wire.length,
    });
    // Window (4 KiB) + one 256-byte block + what that block inflates to: far below the 40 KB image.
    expect(firmware.decoderPeakBytes).toBeGreaterThan(4096);
    expect(firmware.decoderPeakBytes).toBeLessThan(4096 + BLOCK + 16 * 1024);
  });

  it('refuses a coding, or a window, it did not advertise (FW_CODING_UNSUPPORTED)', async () => {
    const { firmware } = await device();
    const img = image('2.0.1', 4000);
    await expect(announce(firmware, img, { name: 'deflate', size: 100, windowBits: 15 })).rejects.toMatchObject({
      code: 'FW_CODING_UNSUPPORTED',
    });
    expect(firmware.status().state).toBe('idle');
  });

  it('fails a truncated stream with FW_CODING_CORRUPT and keeps the running image', async () => {
    const { firmware, store } = await device();
    const img = image('2.1.0', 20_000);
    const wire = deflated(img);
    const cut = wire.subarray(0, wire.length - 40);
    await announce(firmware, img, { name: 'deflate', size: cut.length, windowBits: 12 });
    await expect(send(firmware, cut)).rejects.toMatchObject({ code: 'FW_CODING_CORRUPT' });
    expect(store.current.upload).toMatchObject({ state: 'failed', error: 'FW_CODING_CORRUPT', ackedOffset: 0 });
    expect(store.current.firmwareVersion).toBe('1.0.0');
    await expect(firmware.verifyForApply()).rejects.toMatchObject({ code: 'FW_INCOMPLETE' });
  });

  it('fails a corrupted stream with FW_CODING_CORRUPT', async () => {
    const { firmware, store } = await device();
    const img = image('2.2.0', 20_000);
    const wire = deflated(img).slice();
    for (let i = 300; i < 340; i++) wire[i]! ^= 0xa5;
    await announce(firmware, img, { name: 'deflate', size: wire.length, windowBits: 12 });
    const error = await send(firmware, wire).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeviceError);
    expect(['FW_CODING_CORRUPT', 'FW_HASH_MISMATCH']).toContain((error as DeviceError).code);
    expect(store.current.upload?.state).toBe('failed');
    expect(store.current.firmwareVersion).toBe('1.0.0');
  });

  it('resumes from the acknowledged coded offset while powered, and starts the stream again after a restart', async () => {
    const { firmware } = await device();
    const img = image('2.3.0', 60_000);
    const wire = deflated(img);
    const coding: AnnouncedCoding = { name: 'deflate', size: wire.length, windowBits: 12 };
    await announce(firmware, img, coding);
    await send(firmware, wire, 0, 4 * BLOCK);
    // The host lost the link and announces again: the decoder still holds its window.
    expect((await announce(firmware, img, coding)).offset).toBe(4 * BLOCK);
    await send(firmware, wire, 4 * BLOCK, 8 * BLOCK);
    await firmware.rebooted();
    // The window was in RAM: from the first coded byte again.
    expect((await announce(firmware, img, coding)).offset).toBe(0);
    expect(await send(firmware, wire)).toMatchObject({ received: img.length });
  });

  it('applies a patch against its running slot, and refuses one whose base it does not run (FW_BASE_MISMATCH) before taking a block', async () => {
    const { firmware, store } = await device();
    const a = image('3.0.0', 30_000);
    await installed(firmware, a);
    expect(firmware.runningImageSha256).toBe(Buffer.from(sha256(a)).toString('hex'));
    const b = image('3.1.0', 30_500, 7);
    const wire = deflated(createFirmwarePatch(a, b, { baseSha256: sha256(a), targetSha256: sha256(b) }));
    const other = image('2.9.0', 30_000, 3);
    await expect(
      announce(firmware, b, { name: 'delta', size: wire.length, windowBits: 12, baseSha256: sha256(other) }),
    ).rejects.toMatchObject({ code: 'FW_BASE_MISMATCH' });
    expect(store.current.upload).toBeNull();
    await announce(firmware, b, { name: 'delta', size: wire.length, windowBits: 12, baseSha256: sha256(a) });
    expect(await send(firmware, wire)).toMatchObject({ received: b.length });
    await firmware.applied(await firmware.verifyForApply());
    expect(store.current.firmwareVersion).toBe('3.1.0');
    expect(firmware.runningImageSha256).toBe(Buffer.from(sha256(b)).toString('hex'));
  });
});
