import { Encoder } from 'cbor-x';

/**
 * The one CBOR codec every part uses for files and device payloads. Plain RFC 8949: byte strings
 * as major type 2 (cbor-x would otherwise tag Uint8Array with tag 64, which a device's decoder
 * need not know), no record extension, maps with text keys decoded as plain objects.
 */
const codec = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: true, variableMapSize: true });

export function encodeCbor(value: unknown): Uint8Array {
  return codec.encode(value);
}

export function decodeCbor(bytes: Uint8Array): unknown {
  return codec.decode(bytes);
}

export function isByteString(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}
