import { Encoder } from 'cbor-x';
import { FileFormatError } from './file-error';

/**
 * The one CBOR codec every part uses for files and device payloads. Plain RFC 8949: byte strings
 * as major type 2 (cbor-x would otherwise tag Uint8Array with tag 64, which a device's decoder
 * need not know), no record extension, maps with text keys decoded as plain objects.
 *
 * Decoding takes bytes from devices, downloads and files on disk, so the input is checked before
 * cbor-x sees it (checkCborInput): cbor-x recurses once per level (a few thousand nested arrays
 * overflow the stack) and acts on tags (shared references can make cycles, typed-array tags throw
 * RangeErrors). Every failure is a CborFormatError.
 */
const codec = new Encoder({ tagUint8Array: false, useRecords: false, mapsAsObjects: true, variableMapSize: true });

/** Arrays and maps nested deeper than this are refused; our files and payloads nest a few levels. */
export const CBOR_MAX_DEPTH = 32;

/** Bytes that are not one well-formed CBOR value this codec accepts. */
export class CborFormatError extends FileFormatError {
  constructor(message: string) {
    super('CBOR_MALFORMED', message);
    this.name = 'CborFormatError';
  }
}

export function encodeCbor(value: unknown): Uint8Array {
  return codec.encode(value);
}

export function decodeCbor(bytes: Uint8Array): unknown {
  checkCborInput(bytes);
  try {
    return codec.decode(bytes);
  } catch (error) {
    // What is left after the check: map keys cbor-x cannot turn into property names, and the like.
    throw new CborFormatError(`Not CBOR this codec reads: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function isByteString(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

/** A decoded CBOR map with text keys (mapsAsObjects): an object that is neither a list nor a byte string. */
export function isCborMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isByteString(value);
}

/**
 * Decodes bytes that must hold one CBOR map, the first step of reading each of our CBOR files.
 * `bad` throws the caller's own error, so each file names itself in what it says is wrong.
 */
export function decodeCborMap(
  encoded: Uint8Array,
  what: string,
  bad: (problem: string) => never,
): Record<string, unknown> {
  let value: unknown;
  try {
    value = decodeCbor(encoded);
  } catch {
    bad(`${what} is not CBOR`);
  }
  if (!isCborMap(value)) bad(`${what} is not a map`);
  return value;
}

const MAJOR_UNSIGNED = 0;
const MAJOR_NEGATIVE = 1;
const MAJOR_BYTES = 2;
const MAJOR_TEXT = 3;
const MAJOR_ARRAY = 4;
const MAJOR_MAP = 5;
const MAJOR_TAG = 6;
const BREAK = 0xff;
const INDEFINITE = 31;

/** An array or map being walked: items still expected (Infinity: indefinite length), items seen, and for a map its keys. */
interface OpenContainer {
  left: number;
  seen: number;
  keys: Set<string> | undefined;
}

/**
 * Walks the encoded items without building anything, in a loop rather than recursion: exactly one
 * value, every declared length within the bytes that remain (so a header declaring a 4 GiB string
 * fails here, before anything is allocated), nesting at most `maxDepth`, no tags and no
 * indefinite-length strings (cbor-x does not read those). Map keys are text or integers, each
 * once per map and never `__proto__`: cbor-x would keep the last of two equal keys and rename
 * `__proto__`, silently, where another decoder (a device's) may read the same bytes differently.
 * Throws CborFormatError.
 */
export function checkCborInput(bytes: Uint8Array, maxDepth = CBOR_MAX_DEPTH): void {
  function fail(offset: number, what: string): never {
    throw new CborFormatError(`Malformed CBOR at byte ${offset}: ${what}.`);
  }
  const open: OpenContainer[] = [];
  const text = new TextDecoder();
  let offset = 0;

  const readArgument = (info: number, at: number): number => {
    if (info < 24) return info;
    const width = 1 << (info - 24);
    if (offset + width > bytes.length) fail(at, 'the value ends inside its header');
    let value = 0;
    // Numbers above 2^53 lose precision here, which does not matter: they are only compared with
    // lengths that are far smaller.
    for (let i = 0; i < width; i++) value = value * 256 + bytes[offset + i]!;
    offset += width;
    return value;
  };
  const completeItem = (): void => {
    for (let top = open[open.length - 1]; top; top = open[open.length - 1]) {
      top.seen += 1;
      top.left -= 1;
      if (top.left > 0) return;
      open.pop();
    }
  };
  const openContainer = (items: number, isMap: boolean, at: number): void => {
    if (open.length + 1 > maxDepth) fail(at, `arrays and maps nest deeper than ${maxDepth} levels`);
    open.push({ left: items, seen: 0, keys: isMap ? new Set() : undefined });
  };
  /** Records the key a map's next item is, as the property name cbor-x would make of it. */
  const checkKey = (name: string, at: number): void => {
    const keys = open[open.length - 1]!.keys!;
    if (name === '__proto__') fail(at, 'a map key __proto__');
    if (keys.has(name)) fail(at, `the map key ${JSON.stringify(name.slice(0, 40))} twice`);
    keys.add(name);
  };

  do {
    const at = offset;
    if (offset >= bytes.length)
      fail(at, open.length === 0 ? 'there is no value' : 'the data ends inside an array or map');
    const initial = bytes[offset++]!;
    const major = initial >> 5;
    const info = initial & 0x1f;
    const parent = open[open.length - 1];
    const isKey = parent?.keys !== undefined && parent.seen % 2 === 0;
    if (initial === BREAK) {
      if (parent?.left !== Number.POSITIVE_INFINITY) fail(at, 'a break code outside an indefinite-length array or map');
      if (parent.keys && parent.seen % 2 !== 0) fail(at, 'a map key without a value');
      open.pop();
      completeItem();
      continue;
    }
    if (isKey && major !== MAJOR_TEXT && major !== MAJOR_UNSIGNED && major !== MAJOR_NEGATIVE)
      fail(at, 'a map key that is not text or an integer');
    if (info >= 28 && info <= 30) fail(at, `reserved additional information ${info}`);
    if (info === INDEFINITE) {
      if (major === MAJOR_ARRAY || major === MAJOR_MAP) {
        openContainer(Number.POSITIVE_INFINITY, major === MAJOR_MAP, at);
        continue;
      }
      fail(
        at,
        major === MAJOR_BYTES || major === MAJOR_TEXT
          ? 'an indefinite-length string'
          : 'an indefinite length where none is allowed',
      );
    }
    const argument = readArgument(info, at);
    const remaining = bytes.length - offset;
    switch (major) {
      case MAJOR_BYTES:
      case MAJOR_TEXT:
        if (argument > remaining)
          fail(
            at,
            `a ${major === MAJOR_BYTES ? 'byte' : 'text'} string of ${argument} bytes where ${remaining} remain`,
          );
        if (isKey) checkKey(text.decode(bytes.subarray(offset, offset + argument)), at);
        offset += argument;
        completeItem();
        break;
      case MAJOR_ARRAY:
      case MAJOR_MAP: {
        // Every item takes at least one byte: more items than bytes left cannot be there.
        const items = major === MAJOR_MAP ? argument * 2 : argument;
        if (items > remaining)
          fail(
            at,
            `${major === MAJOR_MAP ? 'a map' : 'an array'} of ${argument} entries where ${remaining} bytes remain`,
          );
        if (items === 0) completeItem();
        else openContainer(items, major === MAJOR_MAP, at);
        break;
      }
      case MAJOR_TAG:
        fail(at, `tag ${argument}: these formats use no tags`);
        break;
      default:
        // Integers, simple values and floats: the argument was the whole item.
        if (isKey) checkKey(String(major === MAJOR_NEGATIVE ? -1 - argument : argument), at);
        completeItem();
    }
  } while (open.length > 0);
  if (offset !== bytes.length) fail(offset, `${bytes.length - offset} bytes follow the value`);
}
