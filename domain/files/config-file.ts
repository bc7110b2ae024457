import { createHash } from 'node:crypto';
import { decodeCborMap, encodeCbor, isByteString, isCborMap } from './cbor';
import { decodeOrgKeyCertificate, type DecodedOrgKeyCertificate } from './config-file-org-key';
import { FileFormatError } from './file-error';

/**
 * Layout of the device configuration file (CBOR), version 2.
 *
 * Top level: a map
 *   format       text   "provisioner-config/2"
 *   syncId       text   uuid; the same value as the X-Config-File-Sync-Id response header
 *   serialNumber text   the device the file is for
 *   deviceType   text
 *   orgId        text   the organization whose key signed the file
 *   sequence     uint   above that of every file the service made before for this device (from 1)
 *   settings     bytes  CBOR encoding of ConfigFileContent (below)
 *   sha256       bytes  SHA-256 of `settings` (32 bytes)
 *   signature    bytes  ECDSA P-256 over `settings` with SHA-256, IEEE P1363 r||s (64 bytes), by the
 *                       organization's key
 *   keyId        text   hex SHA-256 of the organization's public key (SPKI DER), first 16 bytes
 *   orgKey       bytes  the organization key certificate (config-file-org-key.ts): the service's
 *                       root key vouching for that key
 *
 * The settings travel as a byte string (as COSE does) so that a device verifies exactly the bytes
 * the organization signed, without re-encoding a map canonically. The readable top-level fields
 * are repeated inside the signed content and must match it.
 *
 * Version 1 had no organization and no sequence: a device could be given an older file again.
 * Devices refuse it as an unknown format.
 */
export const CONFIG_FILE_FORMAT = 'provisioner-config/2';

export interface ConfigFileContent {
  format: typeof CONFIG_FILE_FORMAT;
  syncId: string;
  serialNumber: string;
  deviceType: string;
  /** The organization the file is from; its key signs the file. */
  orgId: string;
  /**
   * Increases with every file the service makes for this serial number, blank ones included, and
   * never repeats (the service counts for all devices at once, so a device's numbers have gaps): a
   * device refuses a file older than the one it applied (a replay).
   */
  sequence: number;
  /** null for a blank file. */
  configurationId: string | null;
  /** A blank file resets the device to no configuration. */
  blank: boolean;
  issuedAt: string;
  /** The device's own settings (role, interfaces, inputs, network, CAN, serial usage...). */
  device: Record<string, unknown>;
  /** The other devices of the configuration this device talks to. */
  peers: Record<string, unknown>[];
  /** The configuration's safety parameters (timeout, ISM, CAN, receiver output...). */
  safety: Record<string, unknown>;
}

/** An organization's configuration-file signing key, as the service holds it. */
export interface ConfigFileSigner {
  orgId: string;
  keyId: string;
  /** The organization key certificate: travels in every file the key signs. */
  certificate: Uint8Array;
  /** Returns the 64-byte IEEE P1363 ECDSA P-256 signature of `data`. */
  sign(data: Uint8Array): Uint8Array;
}

export interface DecodedConfigFile {
  syncId: string;
  serialNumber: string;
  deviceType: string;
  orgId: string;
  sequence: number;
  keyId: string;
  settings: Uint8Array;
  sha256: Uint8Array;
  signature: Uint8Array;
  /** Taken apart, its signature not checked (verifyConfigFile does). */
  orgKey: DecodedOrgKeyCertificate;
  content: ConfigFileContent;
}

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

export function encodeConfigFile(content: ConfigFileContent, signer: ConfigFileSigner): Uint8Array {
  if (content.orgId !== signer.orgId) throw new Error(`A file of organization ${content.orgId} cannot be signed with the key of ${signer.orgId}.`);
  if (!isSequence(content.sequence)) throw new Error(`A configuration file's sequence is a positive integer, not ${content.sequence}.`);
  const settings = encodeCbor(content);
  return encodeCbor({
    format: CONFIG_FILE_FORMAT,
    syncId: content.syncId,
    serialNumber: content.serialNumber,
    deviceType: content.deviceType,
    orgId: content.orgId,
    sequence: content.sequence,
    settings,
    sha256: sha256(settings),
    signature: signer.sign(settings),
    keyId: signer.keyId,
    orgKey: signer.certificate,
  });
}

function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function bad(message: string): never {
  throw new FileFormatError('CONFIG_BAD_FORMAT', `The configuration file is not valid: ${message}.`);
}

function text(map: Record<string, unknown>, key: string): string {
  const value = map[key];
  if (typeof value !== 'string') bad(`field "${key}" is missing or not text`);
  return value;
}

function sequenceOf(map: Record<string, unknown>): number {
  const value = map.sequence;
  if (!isSequence(value)) bad('field "sequence" is missing or not a positive integer');
  return value;
}

function bytes(map: Record<string, unknown>, key: string): Uint8Array {
  const value = map[key];
  if (!isByteString(value)) bad(`field "${key}" is missing or not a byte string`);
  return value;
}

function asMap(value: unknown, what: string): Record<string, unknown> {
  if (!isCborMap(value)) bad(`${what} is not a map`);
  return value;
}

/** Parses the file's structure and checks its internal consistency; does not check the signatures. */
export function decodeConfigFile(file: Uint8Array): DecodedConfigFile {
  const map = decodeCborMap(file, 'the file', bad);
  if (map.format !== CONFIG_FILE_FORMAT) bad(`unknown format ${JSON.stringify(map.format)}, expected "${CONFIG_FILE_FORMAT}"`);
  const settings = bytes(map, 'settings');
  const digest = bytes(map, 'sha256');
  if (!equalBytes(digest, sha256(settings))) {
    throw new FileFormatError('CONFIG_CHECKSUM_MISMATCH', 'The configuration file is damaged: its checksum does not match its settings. Download it again.');
  }
  const content = decodeCborMap(settings, 'the settings field', bad);
  if (content.format !== CONFIG_FILE_FORMAT) bad('the settings carry an unknown format');
  for (const key of ['syncId', 'serialNumber', 'deviceType', 'orgId'] as const) {
    if (text(content, key) !== text(map, key)) bad(`"${key}" differs between the header and the signed settings`);
  }
  const sequence = sequenceOf(map);
  if (sequenceOf(content) !== sequence) bad('"sequence" differs between the header and the signed settings');
  text(content, 'issuedAt');
  if (typeof content.blank !== 'boolean') bad('field "blank" is missing');
  asMap(content.device, 'the device settings');
  asMap(content.safety, 'the safety settings');
  if (!Array.isArray(content.peers)) bad('field "peers" is not a list');
  return {
    syncId: text(map, 'syncId'),
    serialNumber: text(map, 'serialNumber'),
    deviceType: text(map, 'deviceType'),
    orgId: text(map, 'orgId'),
    sequence,
    keyId: text(map, 'keyId'),
    settings,
    sha256: digest,
    signature: bytes(map, 'signature'),
    orgKey: decodeOrgKeyCertificate(bytes(map, 'orgKey')),
    content: content as unknown as ConfigFileContent,
  };
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
