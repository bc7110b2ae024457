import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FileFormatError } from '../../../domain/files/file-error';
import { readFirmwareBundle } from '../../../domain/files/firmware-bundle';
import { checkZipLimits, FIRMWARE_BUNDLE_LIMITS } from '../../../domain/files/zip-limits';
import { signedTestBundle } from '../../fixtures/release-key';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

function manifestFor(size: number): Uint8Array {
  return strToU8(
    JSON.stringify({
      format: 'provisioner-firmware/2',
      deviceType: 'EPC',
      version: '1.0.0',
      images: [{ name: 'application.bin', size, sha256: '0'.repeat(64) }],
    }),
  );
}

/**
 * A zip bomb: 1 MiB of zeros deflated (about a kilobyte), with the inflated size in its local
 * header and central directory rewritten to 1 GiB. unzipSync allocates what the directory declares.
 */
function declaredGigabyteBomb(): Uint8Array {
  const zip = zipSync({ 'manifest.json': manifestFor(GiB), 'application.bin': new Uint8Array(MiB) }, { level: 9 });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let patched = 0;
  for (let offset = 0; offset + 46 <= zip.length; offset++) {
    const signature = view.getUint32(offset, true);
    // Local file header (sizes at +18/+22, name length at +26, name at +30) and central directory
    // header (+20/+24, +28, +46): only the image's entries are rewritten.
    const local = signature === 0x04034b50;
    const central = signature === 0x02014b50;
    if (!local && !central) continue;
    const nameLength = view.getUint16(offset + (local ? 26 : 28), true);
    const name = new TextDecoder().decode(
      zip.subarray(offset + (local ? 30 : 46), offset + (local ? 30 : 46) + nameLength),
    );
    if (name !== 'application.bin') continue;
    view.setUint32(offset + (local ? 22 : 24), GiB, true);
    patched++;
  }
  expect(patched).toBe(2);
  return zip;
}

function refusal(work: () => unknown): FileFormatError {
  try {
    work();
  } catch (error) {
    if (error instanceof FileFormatError) return error;
    throw error;
  }
  throw new Error('no error');
}

/** Growth of ArrayBuffer memory while `work` runs: what a bomb that went off would show. */
function arrayBufferGrowth(work: () => void): number {
  const before = process.memoryUsage().arrayBuffers;
  work();
  return process.memoryUsage().arrayBuffers - before;
}

describe('firmware bundles: zip limits checked from the central directory before inflating', () => {
  it('refuses a zip declaring 1 GiB of zeros at once, without allocating it', () => {
    const bomb = declaredGigabyteBomb();
    expect(bomb.length).toBeLessThan(16 * 1024);
    let error: FileFormatError | undefined;
    const growth = arrayBufferGrowth(() => {
      error = refusal(() => readFirmwareBundle(bomb));
    });
    expect(error?.code).toBe('FW_BUNDLE_TOO_LARGE');
    expect(error?.message).toMatch(/application\.bin declares 1073741824 bytes inflated, more than 16777216/);
    expect(growth).toBeLessThan(8 * MiB);
  });

  it('refuses an entry that inflates far more than firmware does (8 MiB of zeros in a few kilobytes)', () => {
    const bomb = zipSync(
      { 'manifest.json': manifestFor(8 * MiB), 'application.bin': new Uint8Array(8 * MiB) },
      { level: 9 },
    );
    const error = refusal(() => readFirmwareBundle(bomb));
    expect(error.code).toBe('FW_BUNDLE_TOO_LARGE');
    expect(error.message).toMatch(/application\.bin inflates \d+ bytes to 8388608, more than 100 times/);
  });

  it('refuses more entries than a bundle has, and a directory that lists one name twice', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 1000; i++) many[`f${i}`] = new Uint8Array(1);
    const crowded = refusal(() => readFirmwareBundle(zipSync(many)));
    expect(crowded.code).toBe('FW_BUNDLE_TOO_LARGE');
    expect(crowded.message).toMatch(/more than 8 files/);

    // Two entries of one name: patch the second name of a two-entry zip into the first.
    const zip = zipSync({ 'manifest.json': manifestFor(4), 'manifesT.json': new Uint8Array(4) });
    const text = Buffer.from(zip);
    for (let at = text.indexOf('manifesT.json'); at >= 0; at = text.indexOf('manifesT.json', at + 1))
      zip[at + 7] = 't'.charCodeAt(0);
    expect(refusal(() => readFirmwareBundle(zip)).message).toMatch(/"manifest\.json" is listed twice/);
  });

  it('refuses a file larger than any bundle before reading it', () => {
    const huge = new Uint8Array(FIRMWARE_BUNDLE_LIMITS.maxZipBytes + 1);
    const error = refusal(() => readFirmwareBundle(huge));
    expect(error.code).toBe('FW_BUNDLE_TOO_LARGE');
  });

  it('passes a real bundle, and lists its entries', () => {
    const bundle = signedTestBundle('EPC', '2.0.0', 64 * 1024);
    expect(
      checkZipLimits(bundle, FIRMWARE_BUNDLE_LIMITS)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['application.bin', 'firmware-manifest.bin', 'manifest.json']);
    expect(readFirmwareBundle(bundle).version).toBe('2.0.0');
  });

  it('says a file that is no zip is not a valid bundle', () => {
    expect(refusal(() => readFirmwareBundle(strToU8('not a zip at all'))).code).toBe('FW_BAD_BUNDLE');
  });
});
