import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkFirmwareManifest,
  decodeFirmwareManifest,
  encodeFirmwareManifest,
  FIRMWARE_MANIFEST_FIXED_SIZE,
  FIRMWARE_SIGNATURE_SIZE,
  generateReleaseKeyPair,
  rawReleasePublicKey,
  readSignedFirmwareManifest,
  releaseKeyFromPem,
  releaseKeyIdOf,
  releaseKeyPairFromPrivateKey,
  signFirmwareManifest,
  verifySignedFirmwareManifest,
  type FirmwareManifest,
  type ReleaseKeyring,
} from '../../../domain/files';
import { codeOf } from '../../fixtures/file-format-error';

const owner = generateReleaseKeyPair();
const stranger = generateReleaseKeyPair();
const keyring: ReleaseKeyring = { keys: [releaseKeyFromPem(owner.publicKeyPem, 'owner')], retiredKeyIds: [] };
const sha = createHash('sha256').update('the image').digest('hex');
const release: Omit<FirmwareManifest, 'keyId'> = {
  deviceType: 'EPC',
  version: '2.4.1',
  imageSize: 65_600,
  imageSha256: sha,
  securityCounter: 7,
  retires: [],
};

describe('release keys', () => {
  it('are named by the first 16 bytes of the SHA-256 of the raw 32-byte public key', () => {
    const raw = rawReleasePublicKey(owner.publicKeyPem);
    expect(raw).toHaveLength(32);
    expect(owner.keyId).toBe(createHash('sha256').update(raw).digest('hex').slice(0, 32));
    expect(releaseKeyIdOf(owner.publicKeyPem)).toBe(owner.keyId);
    expect(releaseKeyPairFromPrivateKey(owner.privateKeyPem)).toEqual(owner);
  });

  it('must be Ed25519', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(
      codeOf(() => releaseKeyFromPem(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'p256')),
    ).toBe('RELEASE_KEY_INVALID');
    expect(
      codeOf(() => releaseKeyPairFromPrivateKey(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())),
    ).toBe('RELEASE_KEY_INVALID');
    expect(codeOf(() => releaseKeyFromPem('not a key', 'junk'))).toBe('RELEASE_KEY_INVALID');
  });
});

describe('firmware manifest layout', () => {
  it('puts every field at its documented offset, little-endian', () => {
    const retired = generateReleaseKeyPair().keyId;
    const bytes = encodeFirmwareManifest({ ...release, keyId: owner.keyId, retires: [retired] });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(bytes).toHaveLength(FIRMWARE_MANIFEST_FIXED_SIZE + 16);
    expect(Buffer.from(bytes.subarray(0, 4)).toString('ascii')).toBe('PVFM');
    expect([bytes[4], bytes[5], bytes[6], bytes[7]]).toEqual([1, 1, 0, 0]);
    expect(Buffer.from(bytes.subarray(8, 16)).toString('hex')).toBe(Buffer.from('EPC\0\0\0\0\0').toString('hex'));
    expect(Buffer.from(bytes.subarray(16, 48)).toString('ascii').replace(/\0+$/, '')).toBe('2.4.1');
    expect(view.getUint32(48, true)).toBe(65_600);
    expect(view.getUint32(52, true)).toBe(7);
    expect(Buffer.from(bytes.subarray(56, 88)).toString('hex')).toBe(sha);
    expect(Buffer.from(bytes.subarray(88, 104)).toString('hex')).toBe(owner.keyId);
    expect(Buffer.from(bytes.subarray(104, 120)).toString('hex')).toBe(retired);
    expect(decodeFirmwareManifest(bytes)).toEqual({ ...release, keyId: owner.keyId, retires: [retired] });
  });

  it('has one encoding: padding, reserved bytes and length are checked', () => {
    const bytes = encodeFirmwareManifest({ ...release, keyId: owner.keyId });
    const dirtyPadding = new Uint8Array(bytes);
    dirtyPadding[20 + 16] = 0x41; // a letter after the version's NUL
    expect(codeOf(() => decodeFirmwareManifest(dirtyPadding))).toBe('FW_BAD_SIGNATURE');
    const reserved = new Uint8Array(bytes);
    reserved[6] = 1;
    expect(codeOf(() => decodeFirmwareManifest(reserved))).toBe('FW_BAD_SIGNATURE');
    expect(codeOf(() => decodeFirmwareManifest(new Uint8Array([...bytes, 0])))).toBe('FW_BAD_SIGNATURE');
    const claimsOneRetired = new Uint8Array(bytes);
    claimsOneRetired[5] = 1;
    expect(codeOf(() => decodeFirmwareManifest(claimsOneRetired))).toBe('FW_BAD_SIGNATURE');
  });

  it('refuses what a signer must not sign', () => {
    expect(codeOf(() => signFirmwareManifest({ ...release, retires: [owner.keyId] }, owner.privateKeyPem))).toBe(
      'FW_BAD_SIGNATURE',
    );
    const nine = Array.from({ length: 9 }, () => generateReleaseKeyPair().keyId);
    expect(codeOf(() => signFirmwareManifest({ ...release, retires: nine }, owner.privateKeyPem))).toBe(
      'FW_BAD_SIGNATURE',
    );
    expect(codeOf(() => signFirmwareManifest({ ...release, version: 'x'.repeat(33) }, owner.privateKeyPem))).toBe(
      'FW_BAD_SIGNATURE',
    );
    expect(codeOf(() => signFirmwareManifest({ ...release, securityCounter: -1 }, owner.privateKeyPem))).toBe(
      'FW_BAD_SIGNATURE',
    );
  });
});

describe('signed firmware manifest', () => {
  const signed = signFirmwareManifest(release, owner.privateKeyPem);

  it('is the manifest followed by an Ed25519 signature a device checks with the raw public key', () => {
    expect(signed).toHaveLength(FIRMWARE_MANIFEST_FIXED_SIZE + FIRMWARE_SIGNATURE_SIZE);
    const body = signed.subarray(0, FIRMWARE_MANIFEST_FIXED_SIZE);
    const raw = Buffer.from(rawReleasePublicKey(owner.publicKeyPem)).toString('base64url');
    const fromRaw = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
    expect(verify(null, body, fromRaw, signed.subarray(FIRMWARE_MANIFEST_FIXED_SIZE))).toBe(true);
    // Ed25519 is deterministic: the same manifest and key always give the same bytes.
    expect(Buffer.from(signFirmwareManifest(release, owner.privateKeyPem)).equals(Buffer.from(signed))).toBe(true);
  });

  it('verifies with the key that signed it and names that key', () => {
    const verified = verifySignedFirmwareManifest(signed, keyring);
    expect(verified.manifest).toEqual({ ...release, keyId: owner.keyId });
    expect(verified.key).toMatchObject({ keyId: owner.keyId, name: 'owner' });
  });

  it('fails when any single byte is changed', () => {
    for (let i = 0; i < signed.length; i++) {
      const tampered = new Uint8Array(signed);
      tampered[i] = tampered[i]! ^ 0x01;
      // A changed key id names a key nobody trusts; any other change breaks the structure or the signature.
      expect(['FW_BAD_SIGNATURE', 'FW_UNTRUSTED_KEY'], `byte ${i}`).toContain(
        codeOf(() => verifySignedFirmwareManifest(tampered, keyring)),
      );
    }
  });

  it('fails with a key that is not trusted, and with a forged key id', () => {
    expect(
      codeOf(() => verifySignedFirmwareManifest(signFirmwareManifest(release, stranger.privateKeyPem), keyring)),
    ).toBe('FW_UNTRUSTED_KEY');
    // The stranger claims the owner's key id: the manifest names a trusted key, the signature is not its.
    const claimed = encodeFirmwareManifest({ ...release, keyId: owner.keyId });
    const forged = new Uint8Array([
      ...claimed,
      ...signFirmwareManifest(release, stranger.privateKeyPem).subarray(FIRMWARE_MANIFEST_FIXED_SIZE),
    ]);
    expect(codeOf(() => verifySignedFirmwareManifest(forged, keyring))).toBe('FW_BAD_SIGNATURE');
    expect(codeOf(() => verifySignedFirmwareManifest(signed.subarray(0, 100), keyring))).toBe('FW_BAD_SIGNATURE');
  });

  it('fails with a retired key, even while the key is still held', () => {
    expect(codeOf(() => verifySignedFirmwareManifest(signed, { ...keyring, retiredKeyIds: [owner.keyId] }))).toBe(
      'FW_KEY_RETIRED',
    );
  });

  it('carries the keys it retires', () => {
    const rotating = signFirmwareManifest({ ...release, retires: [stranger.keyId] }, owner.privateKeyPem);
    expect(readSignedFirmwareManifest(rotating).manifest.retires).toEqual([stranger.keyId]);
    expect(verifySignedFirmwareManifest(rotating, keyring).manifest.retires).toEqual([stranger.keyId]);
  });
});

describe('checking a manifest against an image and a device', () => {
  const manifest: FirmwareManifest = { ...release, keyId: owner.keyId };

  it('refuses a counter below the floor and takes one at or above it', () => {
    expect(codeOf(() => checkFirmwareManifest(manifest, { deviceType: 'EPC', securityCounterFloor: 8 }))).toBe(
      'FW_ROLLBACK',
    );
    expect(() => checkFirmwareManifest(manifest, { deviceType: 'EPC', securityCounterFloor: 7 })).not.toThrow();
    expect(() => checkFirmwareManifest(manifest, { deviceType: 'EPC', securityCounterFloor: 0 })).not.toThrow();
  });

  it('refuses another type, and an image other than the signed one', () => {
    expect(codeOf(() => checkFirmwareManifest(manifest, { deviceType: 'NSCP' }))).toBe('FW_WRONG_TYPE');
    const image = { size: 65_600, sha256: sha, deviceType: 'EPC', version: '2.4.1' };
    expect(() => checkFirmwareManifest(manifest, { image })).not.toThrow();
    expect(codeOf(() => checkFirmwareManifest(manifest, { image: { ...image, sha256: '0'.repeat(64) } }))).toBe(
      'FW_BAD_SIGNATURE',
    );
    expect(codeOf(() => checkFirmwareManifest(manifest, { image: { ...image, size: 65_601 } }))).toBe(
      'FW_BAD_SIGNATURE',
    );
    expect(codeOf(() => checkFirmwareManifest(manifest, { image: { ...image, version: '6.6.6-evil' } }))).toBe(
      'FW_BAD_SIGNATURE',
    );
  });
});
