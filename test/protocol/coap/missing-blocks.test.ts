import { describe, expect, it } from 'vitest';
import { CoapFormatError, decodeMissingBlocks, encodeMissingBlocks } from '../../../protocol/coap';

describe('application/missing-blocks+cbor-seq (RFC 9177 §5)', () => {
  it('writes each block number as a CBOR unsigned integer in its shortest form, and reads them back', () => {
    const numbers = [0, 23, 24, 255, 256, 65535, 65536, (1 << 20) - 1];
    const bytes = encodeMissingBlocks(numbers);
    expect([...bytes.subarray(0, 5)]).toEqual([0x00, 0x17, 0x18, 24, 0x18]);
    expect(decodeMissingBlocks(bytes)).toEqual(numbers);
  });

  it('refuses other CBOR types, numbers cut short and numbers beyond 20 bits', () => {
    expect(() => decodeMissingBlocks(Uint8Array.of(0x61, 0x41))).toThrow(/major type 3/);
    expect(() => decodeMissingBlocks(Uint8Array.of(0x19, 0x01))).toThrow(CoapFormatError);
    expect(() => decodeMissingBlocks(Uint8Array.of(0x1a, 0x00, 0x10, 0x00, 0x00))).toThrow(/no block number/);
    expect(() => encodeMissingBlocks([1 << 20])).toThrow(RangeError);
  });
});
