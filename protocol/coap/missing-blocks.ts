import { CoapFormatError } from './codec';

/**
 * RFC 9177 §5 application/missing-blocks+cbor-seq: the payload of a 4.08 answering a Q-Block1
 * payload set, a CBOR Sequence of unsigned integers (the missing block numbers, ascending). Only
 * major type 0 is valid here, so this small codec reads nothing else.
 */

/** Block numbers are at most 20 bits (RFC 7959 §2.2): uint in 1, 2, 3 or 5 bytes. */
export function encodeMissingBlocks(numbers: readonly number[]): Uint8Array {
  const bytes: number[] = [];
  for (const n of numbers) {
    if (!Number.isInteger(n) || n < 0 || n >= 1 << 20) throw new RangeError(`block number ${n} out of range`);
    if (n < 24) bytes.push(n);
    else if (n < 0x100) bytes.push(0x18, n);
    else if (n < 0x10000) bytes.push(0x19, n >> 8, n & 0xff);
    else bytes.push(0x1a, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
  return Uint8Array.from(bytes);
}

export function decodeMissingBlocks(payload: Uint8Array): number[] {
  const numbers: number[] = [];
  let at = 0;
  const take = (count: number): number => {
    if (at + count > payload.length) throw new CoapFormatError('missing-blocks list ends inside a number');
    let value = 0;
    for (let i = 0; i < count; i++) value = value * 256 + payload[at + i]!;
    at += count;
    return value;
  };
  while (at < payload.length) {
    const initial = payload[at++]!;
    if (initial >> 5 !== 0)
      throw new CoapFormatError(
        `missing-blocks list holds CBOR major type ${initial >> 5}; only unsigned integers belong there`,
      );
    const info = initial & 0x1f;
    const value = info < 24 ? info : info === 24 ? take(1) : info === 25 ? take(2) : info === 26 ? take(4) : undefined;
    if (value === undefined || value >= 1 << 20)
      throw new CoapFormatError('missing-blocks list holds a number that is no block number');
    numbers.push(value);
  }
  return numbers;
}
