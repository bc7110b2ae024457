import { createHash } from 'node:crypto';
import { isCborMap } from './cbor';
import type { DecodedOrgKeyCertificate } from './config-file-org-key';
import { FileFormatError } from './file-error';

/**
 * What every layout of the configuration file carries, and the checks of it that do not depend on
 * the layout: the signed content (ConfigFileContent), what a reader gets back (DecodedConfigFile)
 * and the signer. config-file.ts picks the layout; config-file-layout2.ts and secure-config.ts
 * write and read one each.
 */

/** Layout 3: the vendor's secure configuration map with our content inside (secure-config.ts). What the service serves. */
export const CONFIG_FILE_FORMAT = 'provisioner-config/3';
/** Layout 2: our own map (config-file-layout2.ts). Still read: devices in the field and files saved before layout 3 hold it. */
export const CONFIG_FILE_FORMAT_LAYOUT2 = 'provisioner-config/2';
export const CONFIG_FILE_FORMATS = [CONFIG_FILE_FORMAT_LAYOUT2, CONFIG_FILE_FORMAT] as const;
export type ConfigFileFormat = (typeof CONFIG_FILE_FORMATS)[number];

export interface ConfigFileContent {
  /** The layout the content is written in, and read from: a file of one layout never carries content naming the other. */
  format: ConfigFileFormat;
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

/** A file of either layout, taken apart: the same shape whatever the layout, so that callers need not know it. */
export interface DecodedConfigFile {
  syncId: string;
  serialNumber: string;
  deviceType: string;
  orgId: string;
  sequence: number;
  keyId: string;
  /** The signed bytes: layout 2's `settings`, layout 3's `config-data`. */
  settings: Uint8Array;
  /** SHA-256 of `settings`, as the file states it. */
  sha256: Uint8Array;
  /** ECDSA P-256, IEEE P1363 r||s (64 bytes). */
  signature: Uint8Array;
  /** Taken apart, its signature not checked (verifyConfigFile does). */
  orgKey: DecodedOrgKeyCertificate;
  content: ConfigFileContent;
}

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/** What the service checks before it signs, whatever the layout. */
export function checkSignable(content: ConfigFileContent, signer: ConfigFileSigner): void {
  if (content.orgId !== signer.orgId)
    throw new Error(`A file of organization ${content.orgId} cannot be signed with the key of ${signer.orgId}.`);
  if (!isSequence(content.sequence))
    throw new Error(`A configuration file's sequence is a positive integer, not ${content.sequence}.`);
}

export function badConfigFile(message: string): never {
  throw new FileFormatError('CONFIG_BAD_FORMAT', `The configuration file is not valid: ${message}.`);
}

export function checksumMismatch(): FileFormatError {
  return new FileFormatError(
    'CONFIG_CHECKSUM_MISMATCH',
    'The configuration file is damaged: its checksum does not match its settings. Download it again.',
  );
}

export function textField(map: Record<string, unknown>, key: string): string {
  const value = map[key];
  if (typeof value !== 'string') badConfigFile(`field "${key}" is missing or not text`);
  return value;
}

export function sequenceField(map: Record<string, unknown>): number {
  const value = map.sequence;
  if (!isSequence(value)) badConfigFile('field "sequence" is missing or not a positive integer');
  return value;
}

export function mapField(value: unknown, what: string): Record<string, unknown> {
  if (!isCborMap(value)) badConfigFile(`${what} is not a map`);
  return value;
}

/**
 * The signed content, checked field by field: it must name the layout it travels in (a layout-2
 * content moved into a layout-3 file, or back, is refused).
 */
export function checkedContent(content: Record<string, unknown>, format: ConfigFileFormat): ConfigFileContent {
  if (content.format !== format)
    badConfigFile(`the signed settings carry the format ${JSON.stringify(content.format)}, not "${format}"`);
  for (const key of ['syncId', 'serialNumber', 'deviceType', 'orgId', 'issuedAt'] as const) textField(content, key);
  sequenceField(content);
  if (typeof content.blank !== 'boolean') badConfigFile('field "blank" is missing');
  mapField(content.device, 'the device settings');
  mapField(content.safety, 'the safety settings');
  if (!Array.isArray(content.peers)) badConfigFile('field "peers" is not a list');
  return content as unknown as ConfigFileContent;
}
