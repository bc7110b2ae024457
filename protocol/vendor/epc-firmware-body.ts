import { createHash } from 'node:crypto';
import { decodeCbor, encodeCbor, isByteString, isCborMap } from '../../domain/files/cbor';
import { EPC_FIRMWARE_MAX_SIZE } from './resources';

/** The EPC firmware POST body (vendor spec §6.3): CBOR {length, data, sha256}, in this key order. */
export interface EpcFirmwareBody {
  length: number;
  data: Uint8Array;
  /** Lower-case hex SHA-256 of data. */
  sha256: string;
}

export function encodeEpcFirmwareBody(data: Uint8Array): Uint8Array {
  return encodeCbor({ length: data.length, data, sha256: createHash('sha256').update(data).digest('hex') });
}

/** A body the EPC refuses; the message says what is wrong with it. */
export class EpcFirmwareBodyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EpcFirmwareBodyError';
  }
}

/** Decodes the body and checks its length and SHA-256 against data, as the device does before installing. */
export function decodeEpcFirmwareBody(bytes: Uint8Array): EpcFirmwareBody {
  let value: unknown;
  try {
    value = decodeCbor(bytes);
  } catch {
    throw new EpcFirmwareBodyError('The firmware body is not CBOR; send the map {length, data, sha256}.');
  }
  if (!isCborMap(value)) throw new EpcFirmwareBodyError('The firmware body must be a CBOR map {length, data, sha256}.');
  const { length, data, sha256 } = value;
  if (!isByteString(data)) throw new EpcFirmwareBodyError('The firmware body has no "data" byte string.');
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0)
    throw new EpcFirmwareBodyError('The firmware body\'s "length" must be a whole number.');
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256))
    throw new EpcFirmwareBodyError('The firmware body\'s "sha256" must be 64 hex digits.');
  if (data.length > EPC_FIRMWARE_MAX_SIZE)
    throw new EpcFirmwareBodyError(
      `The package is ${data.length} bytes; the EPC takes at most ${EPC_FIRMWARE_MAX_SIZE}.`,
    );
  if (length !== data.length)
    throw new EpcFirmwareBodyError(
      `"length" says ${length} bytes but data holds ${data.length}: the package was cut short.`,
    );
  const actual = createHash('sha256').update(data).digest('hex');
  if (actual !== sha256.toLowerCase())
    throw new EpcFirmwareBodyError(
      `"sha256" says ${sha256.toLowerCase()} but data hashes to ${actual}: the package is damaged.`,
    );
  return { length, data, sha256: actual };
}
