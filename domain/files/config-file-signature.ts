import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { ConfigFileSigner, DecodedConfigFile } from './config-file';
import { decodeConfigFile } from './config-file';
import { FileFormatError } from './file-error';

/** ES256 with IEEE P1363 (r||s, 64 bytes): what small devices' crypto libraries verify natively. */
const SIGNATURE_ENCODING = 'ieee-p1363' as const;

export interface SigningKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
  keyId: string;
}

export function keyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex').slice(0, 32);
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

export function createConfigFileSigner(privateKeyPem: string): ConfigFileSigner {
  const key = createPrivateKey(privateKeyPem);
  const publicKeyPem = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
  return {
    keyId: keyIdOf(publicKeyPem),
    sign: (data) => new Uint8Array(sign('sha256', data, { key, dsaEncoding: SIGNATURE_ENCODING })),
  };
}

export interface VerifyOptions {
  publicKeyPem: string;
  /** When given, a file for any other device is refused. */
  expectedSerialNumber?: string;
}

/**
 * What a device (and the app, before sending) checks: structure, checksum, the service's
 * signature, and that the file is for this device. Throws FileFormatError with a stable code.
 */
export function verifyConfigFile(file: Uint8Array, options: VerifyOptions): DecodedConfigFile {
  const decoded = decodeConfigFile(file);
  const key = createPublicKey(options.publicKeyPem);
  const valid =
    decoded.signature.length === 64 &&
    verify('sha256', decoded.settings, { key, dsaEncoding: SIGNATURE_ENCODING }, decoded.signature);
  if (!valid) {
    throw new FileFormatError(
      'CONFIG_BAD_SIGNATURE',
      'The configuration file is not signed by this service. Download it again from the service the device belongs to.',
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
