import { decodeCborMap, encodeCbor, isByteString } from './cbor';
import { FileFormatError } from './file-error';

/**
 * Layout of an organization key certificate (CBOR): the service's root key vouching that a public
 * key is the configuration-file signing key of one organization. Every configuration file carries
 * the certificate of the key that signed it, so a device that trusts only the root key (given at
 * manufacture) can check any organization's file, and tell whose it is.
 *
 * Top level: a map
 *   format     text   "provisioner-org-key/1"
 *   body       bytes  CBOR encoding of the body map below: what the root key signs
 *   signature  bytes  ECDSA P-256 over `body` with SHA-256, IEEE P1363 r||s (64 bytes)
 *
 * Body: a map
 *   format     text   "provisioner-org-key/1"
 *   orgId      text   the organization the key signs for
 *   keyId      text   hex SHA-256 of `publicKey`, first 16 bytes
 *   publicKey  bytes  the organization's ES256 public key, SPKI DER
 *   rootKeyId  text   the key id of the root key that signed the body
 *
 * This module reads and writes the layout only; config-file-signature.ts signs and checks it.
 */
export const ORG_KEY_CERTIFICATE_FORMAT = 'provisioner-org-key/1';

export interface OrgKeyCertificateBody {
  orgId: string;
  keyId: string;
  /** SPKI DER. */
  publicKey: Uint8Array;
  rootKeyId: string;
}

export interface DecodedOrgKeyCertificate extends OrgKeyCertificateBody {
  /** The signed bytes, exactly as they travel. */
  body: Uint8Array;
  signature: Uint8Array;
}

export function encodeOrgKeyCertificateBody(body: OrgKeyCertificateBody): Uint8Array {
  return encodeCbor({
    format: ORG_KEY_CERTIFICATE_FORMAT,
    orgId: body.orgId,
    keyId: body.keyId,
    publicKey: body.publicKey,
    rootKeyId: body.rootKeyId,
  });
}

export function encodeOrgKeyCertificate(body: Uint8Array, signature: Uint8Array): Uint8Array {
  return encodeCbor({ format: ORG_KEY_CERTIFICATE_FORMAT, body, signature });
}

function bad(message: string): never {
  throw new FileFormatError('CONFIG_BAD_FORMAT', `The organization key certificate is not valid: ${message}.`);
}

function mapOf(bytes: Uint8Array, what: string): Record<string, unknown> {
  const map = decodeCborMap(bytes, what, bad);
  if (map.format !== ORG_KEY_CERTIFICATE_FORMAT)
    bad(`${what} has the format ${JSON.stringify(map.format)}, not "${ORG_KEY_CERTIFICATE_FORMAT}"`);
  return map;
}

function field<T>(map: Record<string, unknown>, key: string, check: (value: unknown) => value is T, what: string): T {
  const value = map[key];
  if (!check(value)) bad(`field "${key}" is missing or not ${what}`);
  return value;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** Takes the certificate apart; does not check its signature. */
export function decodeOrgKeyCertificate(certificate: Uint8Array): DecodedOrgKeyCertificate {
  const top = mapOf(certificate, 'the certificate');
  const body = field(top, 'body', isByteString, 'a byte string');
  const signature = field(top, 'signature', isByteString, 'a byte string');
  const inner = mapOf(body, 'its body');
  return {
    orgId: field(inner, 'orgId', isText, 'text'),
    keyId: field(inner, 'keyId', isText, 'text'),
    publicKey: field(inner, 'publicKey', isByteString, 'a byte string'),
    rootKeyId: field(inner, 'rootKeyId', isText, 'text'),
    body,
    signature,
  };
}
