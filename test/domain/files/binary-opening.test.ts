import { describe, expect, it } from 'vitest';
import { opensWith, writeOpening, type BinaryOpening } from '../../../domain/files/binary-opening';

const PATCH: BinaryOpening = { magic: 'PVDP', version: 1 };

function opened(opening: BinaryOpening, length = 16): Uint8Array {
  const bytes = new Uint8Array(length);
  writeOpening(bytes, opening);
  return bytes;
}

describe('binary opening', () => {
  it('recognises the magic and version it wrote', () => {
    const bytes = opened(PATCH);
    expect(Array.from(bytes.subarray(0, 5))).toEqual([0x50, 0x56, 0x44, 0x50, 1]);
    expect(opensWith(bytes, PATCH)).toBe(true);
  });

  it.each([
    ['another format', opened({ magic: 'PVFW', version: 1 })],
    ['another layout version', opened({ magic: 'PVDP', version: 2 })],
    ['fewer bytes than the opening', opened(PATCH).subarray(0, 4)],
    ['no bytes', new Uint8Array(0)],
  ])('refuses %s', (_, bytes) => {
    expect(opensWith(bytes, PATCH)).toBe(false);
  });
});
