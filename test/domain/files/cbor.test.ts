import { describe, expect, it } from 'vitest';
import { CBOR_MAX_DEPTH, CborFormatError, decodeCbor, encodeCbor } from '../../../domain/files/cbor';
import { FileFormatError } from '../../../domain/files/file-error';

function nestedArrays(depth: number): Uint8Array {
  // [[[ … 0 … ]]]: `depth` one-element arrays around a zero.
  return Uint8Array.from([...new Array<number>(depth).fill(0x81), 0x00]);
}

function decodeError(bytes: Uint8Array): unknown {
  try {
    decodeCbor(bytes);
  } catch (error) {
    return error;
  }
  throw new Error('decoded without an error');
}

describe('CBOR decoding of untrusted bytes', () => {
  it('decodes what it encodes: maps, arrays, byte and text strings, numbers, null', () => {
    const value = { a: [1, -2, 3.5, null, true], b: new Uint8Array([1, 2, 3]), c: 'text', d: { e: 2 ** 40 } };
    const decoded = decodeCbor(encodeCbor(value)) as typeof value;
    expect({ ...decoded, b: new Uint8Array(decoded.b) }).toEqual(value);
    // Indefinite-length arrays and maps are valid CBOR and read.
    expect(decodeCbor(Uint8Array.from([0x9f, 0x01, 0xbf, 0x61, 0x61, 0x02, 0xff, 0xff]))).toEqual([1, { a: 2 }]);
  });

  it('refuses a 4-byte header declaring a 4 GiB string at once, without allocating it', () => {
    for (const header of [
      [0x7a, 0xff, 0xff, 0xff, 0xff], // text string of 4 GiB - 1
      [0x5a, 0xff, 0xff, 0xff, 0xff], // byte string
      [0x5b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00], // byte string of 4 GiB, 8-byte length
      [0x9a, 0xff, 0xff, 0xff, 0xff], // array of 4 G entries
      [0xba, 0x7f, 0xff, 0xff, 0xff], // map of 2 G pairs
    ]) {
      const before = process.memoryUsage().arrayBuffers;
      const error = decodeError(Uint8Array.from(header));
      expect(error).toBeInstanceOf(CborFormatError);
      expect((error as CborFormatError).message).toMatch(/where \d+ (bytes )?remain/);
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 * 1024);
    }
  });

  it('refuses nesting deeper than the limit with its typed error, not a stack overflow', () => {
    expect(decodeCbor(nestedArrays(CBOR_MAX_DEPTH))).toBeDefined();
    expect(decodeError(nestedArrays(CBOR_MAX_DEPTH + 1))).toBeInstanceOf(CborFormatError);
    // Deep enough to overflow cbor-x's recursion if it were reached.
    const deep = decodeError(nestedArrays(200_000));
    expect(deep).toBeInstanceOf(CborFormatError);
    expect((deep as Error).message).toMatch(/nest deeper than 32 levels/);
    const deepMaps = Uint8Array.from([...new Array<number[]>(100).fill([0xa1, 0x61, 0x6b]).flat(), 0x00]);
    expect(decodeError(deepMaps)).toBeInstanceOf(CborFormatError);
  });

  it('refuses tags, trailing bytes, truncation, stray breaks and indefinite strings', () => {
    const cases: number[][] = [
      [0xd8, 0x1c, 0x80], // tag 28 (shared value: cycles)
      [0xc1, 0x00], // tag 1 (a date)
      [0x01, 0x02], // two values
      [], // nothing
      [0x82, 0x01], // an array missing an item
      [0xff], // break outside an indefinite container
      [0x7f, 0x61, 0x61, 0xff], // indefinite text string
      [0x1c], // reserved additional information
      [0x19, 0x01], // a 2-byte integer cut short
    ];
    for (const bytes of cases) {
      const error = decodeError(Uint8Array.from(bytes));
      expect(error, Buffer.from(bytes).toString('hex')).toBeInstanceOf(CborFormatError);
      expect(error).toBeInstanceOf(FileFormatError);
      expect((error as FileFormatError).code).toBe('CBOR_MALFORMED');
    }
  });

  it('refuses map keys cbor-x would silently rename or drop: __proto__, and a key twice', () => {
    // Found by test/fuzz/config-file.test.ts: settings with a "__proto__" key came back as "__proto_".
    const renamed = decodeError(encodeCbor({ device: JSON.parse('{"__proto__":[]}') as unknown }));
    expect(renamed).toBeInstanceOf(CborFormatError);
    expect((renamed as Error).message).toMatch(/a map key __proto__/);
    // {"a": 1, "a": 2}: cbor-x keeps the last, another decoder may keep the first.
    expect((decodeError(Uint8Array.from([0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02])) as Error).message).toMatch(
      /the map key "a" twice/,
    );
    // 1 and "1" are one property name.
    expect(decodeError(Uint8Array.from([0xa2, 0x01, 0x01, 0x61, 0x31, 0x02]))).toBeInstanceOf(CborFormatError);
    // The same key in two maps is fine.
    expect(decodeCbor(encodeCbor({ a: { a: 1 }, b: { a: 2 } }))).toEqual({ a: { a: 1 }, b: { a: 2 } });
  });

  it('refuses map keys that are not text or integers, and an indefinite map ending after a key', () => {
    expect(decodeError(Uint8Array.from([0xa1, 0xa1, 0x01, 0x01, 0x02]))).toBeInstanceOf(CborFormatError); // a map as a key
    expect(decodeError(Uint8Array.from([0xa1, 0x41, 0x00, 0x02]))).toBeInstanceOf(CborFormatError); // a byte string as a key
    expect(decodeError(Uint8Array.from([0xbf, 0x61, 0x61, 0xff]))).toBeInstanceOf(CborFormatError);
  });
});
