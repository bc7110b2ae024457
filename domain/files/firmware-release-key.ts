import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { FileFormatError } from './file-error';

/**
 * Release keys sign firmware manifests (firmware-manifest.ts). They are Ed25519 keys: small,
 * deterministic signatures that a microcontroller verifies with a few kilobytes of code, and no
 * parameters to choose. A key is named by its key id: the first 16 bytes of the SHA-256 of its raw
 * 32-byte public key, written as 32 lower-case hex digits.
 */

export const RELEASE_KEY_ALGORITHM = 'Ed25519';
export const RELEASE_KEY_ID_BYTES = 16;

export interface ReleaseKeyPair {
  /** PKCS#8 PEM: what signs. Kept by whoever releases firmware, never by devices. */
  privateKeyPem: string;
  /** SPKI PEM: what devices and the service trust. */
  publicKeyPem: string;
  keyId: string;
}

/** A public release key someone decided to trust, under a name people recognise. */
export interface ReleaseKey {
  keyId: string;
  name: string;
  publicKeyPem: string;
}

/**
 * What a verifier trusts: its keys, and the ids of keys a signed manifest has retired since (a
 * retired key is refused even while it is still among `keys`).
 */
export interface ReleaseKeyring {
  keys: readonly ReleaseKey[];
  retiredKeyIds: readonly string[];
}

/** GET /v1/firmware-release-keys: one trusted key, as the service lists it. */
export const firmwareReleaseKeySchema = z.object({
  keyId: z.string().regex(/^[0-9a-f]{32}$/),
  name: z.string(),
  algorithm: z.literal(RELEASE_KEY_ALGORITHM),
  publicKeyPem: z.string(),
  trustedAt: z.string(),
});
export type FirmwareReleaseKeyRecord = z.infer<typeof firmwareReleaseKeySchema>;

/** Reads a PEM key of either half and checks it is Ed25519: the only kind a release key may be. */
function ed25519KeyObject(pem: string, half: 'public' | 'private'): KeyObject {
  let key: KeyObject;
  try {
    key = half === 'public' ? createPublicKey(pem) : createPrivateKey(pem);
  } catch (error) {
    throw new FileFormatError(
      'RELEASE_KEY_INVALID',
      `The release key is not a PEM ${half} key: ${(error as Error).message}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new FileFormatError(
      'RELEASE_KEY_INVALID',
      `A release key must be an Ed25519 key, not ${key.asymmetricKeyType ?? 'an unknown kind of key'}.`,
    );
  }
  return key;
}

/** The 32 bytes a device stores for a release key (RFC 8032 public key). */
export function rawReleasePublicKey(publicKeyPem: string): Uint8Array {
  const x = ed25519KeyObject(publicKeyPem, 'public').export({ format: 'jwk' }).x;
  if (typeof x !== 'string') throw new FileFormatError('RELEASE_KEY_INVALID', 'The release key has no public part.');
  return new Uint8Array(Buffer.from(x, 'base64url'));
}

export function releaseKeyIdOf(publicKeyPem: string): string {
  return createHash('sha256')
    .update(rawReleasePublicKey(publicKeyPem))
    .digest('hex')
    .slice(0, RELEASE_KEY_ID_BYTES * 2);
}

/** A public key from a file someone was given: checked to be Ed25519, its id computed. */
export function releaseKeyFromPem(publicKeyPem: string, name: string): ReleaseKey {
  const keyId = releaseKeyIdOf(publicKeyPem);
  // Re-exported so that the same key always reads the same, whatever the file's line endings.
  const normalised = ed25519KeyObject(publicKeyPem, 'public').export({ type: 'spki', format: 'pem' }).toString();
  return { keyId, name, publicKeyPem: normalised };
}

export function generateReleaseKeyPair(): ReleaseKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  return releaseKeyPairFromPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

/** The pair a private key file holds. */
export function releaseKeyPairFromPrivateKey(privateKeyPem: string): ReleaseKeyPair {
  const key = ed25519KeyObject(privateKeyPem, 'private');
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  return {
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem,
    keyId: releaseKeyIdOf(publicKeyPem),
  };
}
