import fc from 'fast-check';
import { describe, it } from 'vitest';
import { CBOR_MAX_DEPTH, CborFormatError, decodeCbor, encodeCbor } from '../../domain/files/cbor';
import { assertDecodesWhatItEncodes, assertFuzz, hostileBytes, onlyTypedErrors, withinMemory } from './fuzz-support';

/** Values our files and payloads are made of: maps with text keys, arrays, text, bytes, numbers, booleans, null. */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.uint8Array({ maxLength: 32 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.string().filter((k) => k !== '__proto__'),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
}));

/** Byte strings come back as Buffers: compare as plain bytes. */
function normalized(v: unknown): unknown {
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return v.map(normalized);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalized(x)]));
  return v;
}

const isCborFormatError = (error: unknown): boolean => error instanceof CborFormatError;

describe('fuzz: CBOR', () => {
  it('decodes what it encodes', () => {
    assertDecodesWhatItEncodes(
      value,
      encodeCbor,
      decodeCbor,
      (back, v) => JSON.stringify(normalized(back)) === JSON.stringify(normalized(v)),
    );
  });

  it('random and mutated encodings raise only CborFormatError, within a memory bound', () => {
    assertFuzz(
      fc.property(hostileBytes(value.map(encodeCbor)), (bytes) => {
        withinMemory(() => onlyTypedErrors(() => decodeCbor(bytes), isCborFormatError));
      }),
    );
  });

  it('nesting past the limit is refused with CborFormatError however arrays and maps mix', () => {
    assertFuzz(
      fc.property(fc.array(fc.constantFrom(0x81, 0xa1), { minLength: 1, maxLength: 3 * CBOR_MAX_DEPTH }), (openers) => {
        // Each map level needs a key before its value: a one-byte text "k".
        const bytes = Uint8Array.from([...openers.flatMap((b) => (b === 0xa1 ? [0xa1, 0x61, 0x6b] : [b])), 0x00]);
        let refused = false;
        onlyTypedErrors(
          () => decodeCbor(bytes),
          (error) => (refused = isCborFormatError(error)),
        );
        if (refused !== openers.length > CBOR_MAX_DEPTH)
          throw new Error(`${openers.length} levels ${refused ? 'refused' : 'decoded'}`);
      }),
    );
  });
});
