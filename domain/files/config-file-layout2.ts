import { decodeCborMap, encodeCbor, isByteString } from './cbor';
import {
  badConfigFile,
  checkedContent,
  checksumMismatch,
  CONFIG_FILE_FORMAT_LAYOUT2,
  equalBytes,
  sequenceField,
  sha256,
  textField,
  type ConfigFileContent,
  type ConfigFileSigner,
  type DecodedConfigFile,
} from './config-file-content';
import { decodeOrgKeyCertificate } from './config-file-org-key';

/**
 * Layout 2 of the configuration file (CBOR): our own map, served until layout 3
 * (secure-config.ts) replaced it. Every reader still reads it.
 *
 * Top level: a map
 *   format       text   "provisioner-config/2"
 *   syncId       text   uuid; the same value as the X-Config-File-Sync-Id response header
 *   serialNumber text   the device the file is for
 *   deviceType   text
 *   orgId        text   the organization whose key signed the file
 *   sequence     uint   above that of every file the service made before for this device (from 1)
 *   settings     bytes  CBOR encoding of ConfigFileContent (format "provisioner-config/2")
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

export function encodeLayout2(content: ConfigFileContent, signer: ConfigFileSigner): Uint8Array {
  const settings = encodeCbor(content);
  return encodeCbor({
    format: CONFIG_FILE_FORMAT_LAYOUT2,
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

function bytes(map: Record<string, unknown>, key: string): Uint8Array {
  const value = map[key];
  if (!isByteString(value)) badConfigFile(`field "${key}" is missing or not a byte string`);
  return value;
}

/** `map`: the file's top level, whose format said layout 2. Checks structure and checksum, not the signatures. */
export function decodeLayout2(map: Record<string, unknown>): DecodedConfigFile {
  const settings = bytes(map, 'settings');
  const digest = bytes(map, 'sha256');
  if (!equalBytes(digest, sha256(settings))) throw checksumMismatch();
  const content = checkedContent(
    decodeCborMap(settings, 'the settings field', badConfigFile),
    CONFIG_FILE_FORMAT_LAYOUT2,
  );
  for (const key of ['syncId', 'serialNumber', 'deviceType', 'orgId'] as const) {
    if (content[key] !== textField(map, key))
      badConfigFile(`"${key}" differs between the header and the signed settings`);
  }
  const sequence = sequenceField(map);
  if (content.sequence !== sequence) badConfigFile('"sequence" differs between the header and the signed settings');
  return {
    syncId: content.syncId,
    serialNumber: content.serialNumber,
    deviceType: content.deviceType,
    orgId: content.orgId,
    sequence,
    keyId: textField(map, 'keyId'),
    settings,
    sha256: digest,
    signature: bytes(map, 'signature'),
    orgKey: decodeOrgKeyCertificate(bytes(map, 'orgKey')),
    content,
  };
}
