import { scm2FromConfiguration } from '../vendor/scm2-from-configuration';
import { encodeConfigData, SECURE_CONFIG_KEY, sha256Hex } from '../vendor/secure-config';
import { decodeCborMap, encodeCbor, isByteString } from './cbor';
import {
  badConfigFile,
  checkedContent,
  checksumMismatch,
  CONFIG_FILE_FORMAT,
  equalBytes,
  mapField,
  sha256,
  textField,
  type ConfigFileContent,
  type ConfigFileSigner,
  type DecodedConfigFile,
} from './config-file-content';
import { decodeOrgKeyCertificate } from './config-file-org-key';
import { orgKeyCertificateFromPem, orgKeyCertificateToPem } from './secure-config-pem';

/**
 * Layout 3 of the configuration file, the one the service serves to every device: the vendor's
 * secure configuration map (vendor spec §8.1), with our content inside the signed `config-data`
 * and a `syncId` beside it (the service interface wants it in the file's body).
 *
 * Top level: a map, keys in this order (the vendor tool's, then ours)
 *   config-data      bytes  CBOR of { body: { scm2: <vendor view, scm2-from-configuration.ts> },
 *                           provisioner: <ConfigFileContent, format "provisioner-config/3"> }
 *   config-checksum  text   lowercase hex SHA-256 of config-data (64 characters)
 *   r-component      text   lowercase hex of r (32 bytes, 64 characters)
 *   s-component      text   lowercase hex of s (32 bytes, 64 characters): r and s are the ECDSA
 *                           P-256 / SHA-256 signature over config-data by the organization's key.
 *                           That is our scheme; FORT's (curve, encoding, what is signed) is not public.
 *   fso7-3           text   the organization key certificate as PEM, label
 *                           "PROVISIONER ORG KEY CERTIFICATE" (secure-config-pem.ts); the key id is
 *                           in it
 *   syncId           text   uuid; the same value as provisioner.syncId and as the
 *                           X-Config-File-Sync-Id header
 *
 * domain/vendor/secure-config.ts reads the same map as a vendor device does (structure, checksum,
 * scm2); this module reads it as our devices do, checking our signature and content too.
 *
 * Nothing outside config-data is trusted: serial number, organization and sequence are read from
 * the signed content only, and the top-level syncId must equal the signed one.
 */

const HEX_32_BYTES = /^[0-9a-f]{64}$/;

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

export function encodeLayout3(content: ConfigFileContent, signer: ConfigFileSigner): Uint8Array {
  const configData = encodeConfigData({ scm2: scm2FromConfiguration(content), provisioner: content });
  const signature = signer.sign(configData);
  if (signature.length !== 64)
    throw new Error(`An ECDSA P-256 signature in IEEE P1363 form is 64 bytes, not ${signature.length}.`);
  // The vendor's five keys in the vendor tool's order (domain/vendor/secure-config.ts names them), then ours.
  return encodeCbor({
    [SECURE_CONFIG_KEY.configData]: configData,
    [SECURE_CONFIG_KEY.checksum]: sha256Hex(configData),
    [SECURE_CONFIG_KEY.rComponent]: toHex(signature.subarray(0, 32)),
    [SECURE_CONFIG_KEY.sComponent]: toHex(signature.subarray(32)),
    [SECURE_CONFIG_KEY.fso73]: orgKeyCertificateToPem(signer.certificate),
    syncId: content.syncId,
  });
}

/** A top-level map in layout 3 (the vendor's map): it has `config-data`. */
export function isSecureConfigMap(map: Record<string, unknown>): boolean {
  return SECURE_CONFIG_KEY.configData in map;
}

function hex32(map: Record<string, unknown>, key: string): Uint8Array {
  const value = textField(map, key);
  if (!HEX_32_BYTES.test(value)) badConfigFile(`"${key}" is not 64 lowercase hex digits`);
  return new Uint8Array(Buffer.from(value, 'hex'));
}

/**
 * `map`: the file's top level, in layout 3. Checks structure and checksum, not the signatures, in
 * the order docs/device-protocol.md 3.8 gives: the top-level fields, the checksum, then what
 * config-data and the certificate hold.
 */
export function decodeLayout3(map: Record<string, unknown>): DecodedConfigFile {
  const configData = map[SECURE_CONFIG_KEY.configData];
  if (!isByteString(configData)) badConfigFile(`field "${SECURE_CONFIG_KEY.configData}" is not a byte string`);
  const digest = hex32(map, SECURE_CONFIG_KEY.checksum);
  const signature = new Uint8Array([
    ...hex32(map, SECURE_CONFIG_KEY.rComponent),
    ...hex32(map, SECURE_CONFIG_KEY.sComponent),
  ]);
  const certificate = orgKeyCertificateFromPem(textField(map, SECURE_CONFIG_KEY.fso73));
  const syncId = textField(map, 'syncId');
  if (!equalBytes(digest, sha256(configData))) throw checksumMismatch();
  const orgKey = decodeOrgKeyCertificate(certificate);
  const data = decodeCborMap(configData, 'config-data', badConfigFile);
  mapField(mapField(data.body, 'config-data\'s "body"').scm2, 'config-data\'s "body.scm2"');
  const content = checkedContent(mapField(data.provisioner, 'config-data\'s "provisioner"'), CONFIG_FILE_FORMAT);
  if (syncId !== content.syncId) badConfigFile('"syncId" differs between the top level and the signed settings');
  return {
    syncId: content.syncId,
    serialNumber: content.serialNumber,
    deviceType: content.deviceType,
    orgId: content.orgId,
    sequence: content.sequence,
    keyId: orgKey.keyId,
    settings: configData,
    sha256: digest,
    signature,
    orgKey,
    content,
  };
}
