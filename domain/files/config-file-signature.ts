import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { ConfigFileSigner, DecodedConfigFile } from './config-file';
import { decodeConfigFile, equalBytes } from './config-file';
import {
  decodeOrgKeyCertificate,
  encodeOrgKeyCertificate,
  encodeOrgKeyCertificateBody,
  type DecodedOrgKeyCertificate,
} from './config-file-org-key';
import { FileFormatError } from './file-error';

/**
 * The signatures of configuration files: a chain of two ES256 keys. The service's root key (the
 * one a device is made trusting) certifies each organization's key; the organization's key signs
 * that organization's files. A device checks both links, then that the file is for itself.
 */

/** ES256 with IEEE P1363 (r||s, 64 bytes): what small devices' crypto libraries verify natively. */
const SIGNATURE_ENCODING = 'ieee-p1363' as const;

export interface SigningKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
  keyId: string;
}

/** An organization's key pair and the root key's certificate for it. */
export interface OrganizationKeyPair extends SigningKeyPair {
  orgId: string;
  certificate: Uint8Array;
}

/** An organization key whose certificate checked out against the root key. */
export interface CertifiedOrganizationKey {
  orgId: string;
  keyId: string;
  publicKeyPem: string;
}

export function keyIdOf(publicKeyPem: string): string {
  return keyIdOfDer(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }));
}

/**
 * A root key's fingerprint: the whole SHA-256 of its SPKI DER, hex (64 digits). What a technician
 * compares, or gives a laptop that has no root yet (`package import --root-fingerprint`); the key
 * id is its first half.
 */
export function rootKeyFingerprint(publicKeyPem: string): string {
  return createHash('sha256')
    .update(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** A fingerprint as typed: 64 hex digits, in any case, with spaces or colons between them if one likes; undefined when it is not one. */
export function parseRootKeyFingerprint(text: string): string | undefined {
  const digits = text.replace(/[\s:]/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(digits) ? digits : undefined;
}

function keyIdOfDer(spkiDer: Uint8Array): string {
  return createHash('sha256').update(spkiDer).digest('hex').slice(0, 32);
}

export function generateSigningKeyPair(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem,
    keyId: keyIdOf(publicKeyPem),
  };
}

function es256(data: Uint8Array, key: KeyObject): Uint8Array {
  return new Uint8Array(sign('sha256', data, { key, dsaEncoding: SIGNATURE_ENCODING }));
}

function es256Verifies(data: Uint8Array, signature: Uint8Array, key: KeyObject): boolean {
  return signature.length === 64 && verify('sha256', data, { key, dsaEncoding: SIGNATURE_ENCODING }, signature);
}

function publicPemOf(key: KeyObject): string {
  return (key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'pem' }).toString();
}

/** The root key's certificate for an organization's public key. */
export function certifyOrganizationKey(
  input: { orgId: string; publicKeyPem: string },
  rootPrivateKeyPem: string,
): Uint8Array {
  const root = createPrivateKey(rootPrivateKeyPem);
  const publicKey = new Uint8Array(createPublicKey(input.publicKeyPem).export({ type: 'spki', format: 'der' }));
  const body = encodeOrgKeyCertificateBody({
    orgId: input.orgId,
    keyId: keyIdOfDer(publicKey),
    publicKey,
    rootKeyId: keyIdOf(publicPemOf(root)),
  });
  return encodeOrgKeyCertificate(body, es256(body, root));
}

/** A new signing key for an organization, certified by the root key. */
export function createOrganizationKey(orgId: string, rootPrivateKeyPem: string): OrganizationKeyPair {
  const pair = generateSigningKeyPair();
  return {
    ...pair,
    orgId,
    certificate: certifyOrganizationKey({ orgId, publicKeyPem: pair.publicKeyPem }, rootPrivateKeyPem),
  };
}

const notCertified = (why: string) =>
  new FileFormatError(
    'CONFIG_BAD_SIGNATURE',
    `The configuration file is not signed by an organization of this service (${why}). Download it again from the service the device belongs to.`,
  );

/** Checks the root key's signature on an organization key certificate (CONFIG_BAD_SIGNATURE otherwise). */
export function verifyOrganizationKey(
  certificate: Uint8Array | DecodedOrgKeyCertificate,
  rootKeyPem: string,
): CertifiedOrganizationKey {
  const decoded = certificate instanceof Uint8Array ? decodeOrgKeyCertificate(certificate) : certificate;
  const root = createPublicKey(rootKeyPem);
  if (decoded.rootKeyId !== keyIdOf(publicPemOf(root)))
    throw notCertified(`its organization key is certified by root key ${decoded.rootKeyId}, not this device's`);
  if (!es256Verifies(decoded.body, decoded.signature, root))
    throw notCertified('the certificate of its organization key does not verify');
  if (decoded.keyId !== keyIdOfDer(decoded.publicKey))
    throw notCertified('the certificate names another key id than its key has');
  let publicKeyPem: string;
  try {
    publicKeyPem = createPublicKey({ key: Buffer.from(decoded.publicKey), format: 'der', type: 'spki' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
  } catch {
    throw notCertified('the certified key is not a public key');
  }
  return { orgId: decoded.orgId, keyId: decoded.keyId, publicKeyPem };
}

/** The signer of an organization's files: its private key and the root key's certificate for it. */
export function createConfigFileSigner(privateKeyPem: string, certificate: Uint8Array): ConfigFileSigner {
  const key = createPrivateKey(privateKeyPem);
  const decoded = decodeOrgKeyCertificate(certificate);
  const ownPublicKey = new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }));
  if (!equalBytes(ownPublicKey, decoded.publicKey))
    throw new Error(`The certificate of organization ${decoded.orgId} is for another key than this one.`);
  return { orgId: decoded.orgId, keyId: decoded.keyId, certificate, sign: (data) => es256(data, key) };
}

export interface VerifyOptions {
  /** The service's root key: what the device was made trusting. */
  rootKeyPem: string;
  /** When given, a file for any other device is refused. */
  expectedSerialNumber?: string;
}

/**
 * What a device (and the app, before sending) checks of the file itself: structure, checksum, the
 * root key's certificate for the organization key, that key's signature, and that the file is for
 * this device. Throws FileFormatError with a stable code. Whether the device takes it (its claim,
 * the sequence) is config-file-acceptance.ts.
 */
export function verifyConfigFile(file: Uint8Array, options: VerifyOptions): DecodedConfigFile {
  const decoded = decodeConfigFile(file);
  const orgKey = verifyOrganizationKey(decoded.orgKey, options.rootKeyPem);
  if (orgKey.orgId !== decoded.orgId)
    throw notCertified(`it names organization ${decoded.orgId} but carries the key of ${orgKey.orgId}`);
  if (orgKey.keyId !== decoded.keyId)
    throw notCertified(`it names key ${decoded.keyId} but carries key ${orgKey.keyId}`);
  if (!es256Verifies(decoded.settings, decoded.signature, createPublicKey(orgKey.publicKeyPem))) {
    throw new FileFormatError(
      'CONFIG_BAD_SIGNATURE',
      `The configuration file is not signed by the key of organization ${decoded.orgId}. Download it again from the service the device belongs to.`,
    );
  }
  if (options.expectedSerialNumber !== undefined && decoded.serialNumber !== options.expectedSerialNumber) {
    throw new FileFormatError(
      'CONFIG_WRONG_DEVICE',
      `The configuration file is for device ${decoded.serialNumber}, not for ${options.expectedSerialNumber}. Download the file of ${options.expectedSerialNumber}.`,
    );
  }
  return decoded;
}
