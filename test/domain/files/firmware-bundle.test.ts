import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  buildFirmwareBundle,
  FIRMWARE_IMAGE_HEADER_SIZE,
  generateReleaseKeyPair,
  makeFirmwareImage,
  parseFirmwareImageHeader,
  readFirmwareBundle,
  releaseKeyFromPem,
  sha256Hex,
  SIGNED_MANIFEST_FILE,
  verifyFirmwareBundleSignature,
} from '../../../domain/files';
import { codeOf } from '../../fixtures/file-format-error';

const releaseKey = generateReleaseKeyPair();
const keyring = { keys: [releaseKeyFromPem(releaseKey.publicKeyPem, 'release')], retiredKeyIds: [] };
const image = makeFirmwareImage('EPC', '2.4.1', 4096);
const bundle = buildFirmwareBundle({
  deviceType: 'EPC',
  version: '2.4.1',
  image,
  releaseKeyPem: releaseKey.privateKeyPem,
  securityCounter: 3,
});

describe('firmware image', () => {
  it('carries its type, version and length in the header', () => {
    expect(parseFirmwareImageHeader(image)).toEqual({ deviceType: 'EPC', version: '2.4.1', bodyLength: 4096 });
    expect(image.length).toBe(FIRMWARE_IMAGE_HEADER_SIZE + 4096);
  });

  it('is repeatable for the same type and version and differs otherwise', () => {
    expect(sha256Hex(makeFirmwareImage('EPC', '2.4.1', 4096))).toBe(sha256Hex(image));
    expect(sha256Hex(makeFirmwareImage('EPC', '2.4.2', 4096))).not.toBe(sha256Hex(image));
  });

  it('refuses bytes without the header', () => {
    expect(codeOf(() => parseFirmwareImageHeader(new Uint8Array(100)))).toBe('FW_BAD_HEADER');
  });
});

describe('firmware bundle', () => {
  it('reads back what was built, with hashes', () => {
    const read = readFirmwareBundle(bundle, { deviceType: 'EPC', version: '2.4.1' });
    expect(read.version).toBe('2.4.1');
    expect(read.imageSha256).toBe(sha256Hex(image));
    expect(read.bundleSha256).toBe(sha256Hex(bundle));
    expect(Buffer.from(read.image).equals(Buffer.from(image))).toBe(true);
  });

  it('is byte-for-byte repeatable', () => {
    expect(
      sha256Hex(
        buildFirmwareBundle({
          deviceType: 'EPC',
          version: '2.4.1',
          image,
          releaseKeyPem: releaseKey.privateKeyPem,
          securityCounter: 3,
        }),
      ),
    ).toBe(sha256Hex(bundle));
  });

  it('refuses an image whose bytes changed', () => {
    const files = unzipSync(bundle);
    const damaged = new Uint8Array(files['application.bin']!);
    damaged[2000] = damaged[2000]! ^ 0xff;
    expect(codeOf(() => readFirmwareBundle(zipSync({ ...files, 'application.bin': damaged })))).toBe(
      'FW_HASH_MISMATCH',
    );
  });

  it('refuses a truncated image', () => {
    const files = unzipSync(bundle);
    expect(
      codeOf(() =>
        readFirmwareBundle(zipSync({ ...files, 'application.bin': files['application.bin']!.slice(0, 100) })),
      ),
    ).toBe('FW_SIZE_MISMATCH');
  });

  it('refuses a bundle for another type than expected', () => {
    expect(codeOf(() => readFirmwareBundle(bundle, { deviceType: 'NSCP' }))).toBe('FW_WRONG_TYPE');
  });

  it('refuses an image whose header disagrees with the manifest', () => {
    const wrong = buildFirmwareBundle({
      deviceType: 'SRCP',
      version: '2.4.1',
      image,
      releaseKeyPem: releaseKey.privateKeyPem,
    });
    expect(codeOf(() => readFirmwareBundle(wrong))).toBe('FW_BAD_BUNDLE');
  });

  it('refuses junk, a missing manifest and unlisted files', () => {
    expect(codeOf(() => readFirmwareBundle(new Uint8Array([1, 2, 3])))).toBe('FW_BAD_BUNDLE');
    expect(codeOf(() => readFirmwareBundle(zipSync({ 'application.bin': image })))).toBe('FW_BAD_BUNDLE');
    const files = unzipSync(bundle);
    expect(codeOf(() => readFirmwareBundle(zipSync({ ...files, 'extra.txt': strToU8('x') })))).toBe('FW_BAD_BUNDLE');
  });

  it('holds the signed manifest, which names the image and its release key', () => {
    const read = readFirmwareBundle(bundle);
    expect(read.signed?.manifest).toMatchObject({
      deviceType: 'EPC',
      version: '2.4.1',
      imageSize: image.length,
      imageSha256: sha256Hex(image),
      securityCounter: 3,
    });
    expect(verifyFirmwareBundleSignature(read, keyring).key).toMatchObject({
      keyId: releaseKey.keyId,
      name: 'release',
    });
  });

  it('reads a bundle without a signed manifest, to be refused as unsigned', () => {
    const { [SIGNED_MANIFEST_FILE]: _signed, ...unsigned } = unzipSync(bundle);
    const read = readFirmwareBundle(zipSync(unsigned));
    expect(read.signed).toBeNull();
    expect(codeOf(() => verifyFirmwareBundleSignature(read, keyring))).toBe('FW_UNSIGNED');
    const v1 = {
      ...unsigned,
      'manifest.json': strToU8(
        JSON.stringify({
          ...JSON.parse(Buffer.from(unsigned['manifest.json']!).toString()),
          format: 'provisioner-firmware/1',
        }),
      ),
    };
    expect(codeOf(() => verifyFirmwareBundleSignature(readFirmwareBundle(zipSync(v1)), keyring))).toBe('FW_UNSIGNED');
  });

  it('refuses another image under a signed manifest, even with manifest.json rewritten to match it', () => {
    const evil = makeFirmwareImage('EPC', '2.4.1', 4096).map((byte, i) => (i === 3000 ? byte ^ 0xff : byte));
    const files = unzipSync(bundle);
    const listing = JSON.parse(Buffer.from(files['manifest.json']!).toString()) as {
      images: Array<{ sha256: string }>;
    };
    listing.images[0]!.sha256 = sha256Hex(evil);
    expect(
      codeOf(() =>
        readFirmwareBundle(
          zipSync({ ...files, 'manifest.json': strToU8(JSON.stringify(listing)), 'application.bin': evil }),
        ),
      ),
    ).toBe('FW_BAD_SIGNATURE');
  });

  it('refuses a bundle signed by a key the keyring does not hold, or retired', () => {
    const other = generateReleaseKeyPair();
    const signedByOther = readFirmwareBundle(
      buildFirmwareBundle({ deviceType: 'EPC', version: '2.4.1', image, releaseKeyPem: other.privateKeyPem }),
    );
    expect(codeOf(() => verifyFirmwareBundleSignature(signedByOther, keyring))).toBe('FW_UNTRUSTED_KEY');
    expect(
      codeOf(() =>
        verifyFirmwareBundleSignature(readFirmwareBundle(bundle), { ...keyring, retiredKeyIds: [releaseKey.keyId] }),
      ),
    ).toBe('FW_KEY_RETIRED');
  });
});
