import { createHash } from 'node:crypto';
import { decodeCbor, encodeCbor, isByteString, isCborMap } from '../files/cbor';
import { FileFormatError } from '../files/file-error';
import { parseScm2, Scm2Error, type Scm2Config } from './scm2';

/**
 * The vendor's secure-config map (vendor spec §8.1): what `secureConfig.cbor` holds on an FRC and
 * what an EPC takes at `cfg/all`. Five text keys, written in this order by the vendor's tool.
 * It lives in domain/ (not protocol/) because the service builds it too, and the service may
 * import domain only.
 */
export const SECURE_CONFIG_KEY = {
  configData: 'config-data',
  checksum: 'config-checksum',
  rComponent: 'r-component',
  sComponent: 's-component',
  fso73: 'fso7-3',
} as const;

export interface SecureConfig {
  /** CBOR of `{ body: { scm2 }, … }`. */
  configData: Uint8Array;
  /** Lower-case hex SHA-256 of configData, as the map carries it. */
  checksum: string;
  rComponent: string;
  sComponent: string;
  fso73: string;
}

/** Codes a device or host reports about a secure-config map. */
export type SecureConfigErrorCode = 'VENDOR_CONFIG_MALFORMED' | 'VENDOR_CONFIG_CHECKSUM' | 'VENDOR_CONFIG_INVALID';

export class SecureConfigError extends FileFormatError {
  constructor(code: SecureConfigErrorCode, message: string) {
    super(code, message);
    this.name = 'SecureConfigError';
  }
}

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Builds the map in the vendor tool's key order; the checksum is computed here. */
export function encodeSecureConfig(parts: Omit<SecureConfig, 'checksum'>): Uint8Array {
  return encodeCbor({
    [SECURE_CONFIG_KEY.configData]: parts.configData,
    [SECURE_CONFIG_KEY.checksum]: sha256Hex(parts.configData),
    [SECURE_CONFIG_KEY.rComponent]: parts.rComponent,
    [SECURE_CONFIG_KEY.sComponent]: parts.sComponent,
    [SECURE_CONFIG_KEY.fso73]: parts.fso73,
  });
}

/**
 * Reads a secure-config map and checks what a vendor device can check: its structure and the
 * SHA-256 of config-data. The signature (r, s, fso7-3) follows a scheme the vendor has not
 * published; nothing here claims to check it.
 */
export function decodeSecureConfig(bytes: Uint8Array): SecureConfig {
  let map: unknown;
  try {
    map = decodeCbor(bytes);
  } catch (error) {
    throw new SecureConfigError(
      'VENDOR_CONFIG_MALFORMED',
      `The secure configuration is not CBOR: ${(error as Error).message}`,
    );
  }
  if (!isCborMap(map))
    throw new SecureConfigError(
      'VENDOR_CONFIG_MALFORMED',
      'The secure configuration is not a CBOR map with text keys.',
    );
  const configData = map[SECURE_CONFIG_KEY.configData];
  if (!isByteString(configData))
    throw new SecureConfigError(
      'VENDOR_CONFIG_MALFORMED',
      `The secure configuration has no "${SECURE_CONFIG_KEY.configData}" byte string.`,
    );
  const text = (key: string): string => {
    const value = map[key];
    if (typeof value !== 'string')
      throw new SecureConfigError('VENDOR_CONFIG_MALFORMED', `The secure configuration's "${key}" must be text.`);
    return value;
  };
  const checksum = text(SECURE_CONFIG_KEY.checksum);
  if (!/^[0-9a-fA-F]{64}$/.test(checksum)) {
    throw new SecureConfigError(
      'VENDOR_CONFIG_MALFORMED',
      `"${SECURE_CONFIG_KEY.checksum}" must be the 64 hex digits of a SHA-256.`,
    );
  }
  const actual = sha256Hex(configData);
  if (actual !== checksum.toLowerCase()) {
    throw new SecureConfigError(
      'VENDOR_CONFIG_CHECKSUM',
      `"${SECURE_CONFIG_KEY.checksum}" is ${checksum.toLowerCase()}, but config-data hashes to ${actual}: the file is damaged.`,
    );
  }
  return {
    configData,
    checksum: checksum.toLowerCase(),
    rComponent: text(SECURE_CONFIG_KEY.rComponent),
    sComponent: text(SECURE_CONFIG_KEY.sComponent),
    fso73: text(SECURE_CONFIG_KEY.fso73),
  };
}

/** config-data's contents: the vendor's scm2 and, in files the service makes, ours beside it. */
export interface VendorConfigData {
  scm2: Scm2Config;
  /** Our signed configuration file content, when the service made the file; opaque here. */
  provisioner?: unknown;
}

/** CBOR of `{ body: { scm2 }, provisioner? }`. */
export function encodeConfigData(data: { scm2: Scm2Config; provisioner?: unknown }): Uint8Array {
  return encodeCbor(
    data.provisioner === undefined
      ? { body: { scm2: data.scm2 } }
      : { body: { scm2: data.scm2 }, provisioner: data.provisioner },
  );
}

/** Decodes config-data and checks its scm2 against the vendor's rules. */
export function decodeConfigData(configData: Uint8Array): VendorConfigData {
  let value: unknown;
  try {
    value = decodeCbor(configData);
  } catch (error) {
    throw new SecureConfigError('VENDOR_CONFIG_MALFORMED', `config-data is not CBOR: ${(error as Error).message}`);
  }
  const body = isCborMap(value) ? value['body'] : undefined;
  const scm2 = isCborMap(body) ? body['scm2'] : undefined;
  if (scm2 === undefined)
    throw new SecureConfigError('VENDOR_CONFIG_MALFORMED', 'config-data has no body.scm2 object.');
  try {
    const parsed = parseScm2(scm2);
    const provisioner = isCborMap(value) ? value['provisioner'] : undefined;
    return provisioner === undefined ? { scm2: parsed } : { scm2: parsed, provisioner };
  } catch (error) {
    if (error instanceof Scm2Error) throw new SecureConfigError('VENDOR_CONFIG_INVALID', error.message);
    throw error;
  }
}
