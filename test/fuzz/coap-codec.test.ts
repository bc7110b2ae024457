import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  block1Of,
  block2Of,
  CoapFormatError,
  contentFormatOf,
  decodeMessage,
  encodeMessage,
  getUintOption,
  observeOf,
  uriPathOf,
  type CoapMessage,
} from '../../protocol/coap/codec';
import { CODE, OPTION } from '../../protocol/coap/parameters';
import { assertDecodesWhatItEncodes, assertFuzz, hostileBytes, onlyTypedErrors, withinMemory } from './fuzz-support';

const code = fc.oneof(
  fc.constantFrom(...Object.values(CODE).filter((c) => c !== CODE.EMPTY)),
  fc
    .tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 31 }))
    .map(([c, d]) => `${c}.${String(d).padStart(2, '0')}`),
);
/** Option numbers the protocol uses, and others up to the two-byte extended range. */
const optionNumber = fc.oneof(fc.constantFrom(...Object.values(OPTION)), fc.integer({ min: 1, max: 2048 }));

const message: fc.Arbitrary<CoapMessage> = fc.record({
  type: fc.constantFrom('CON' as const, 'NON' as const, 'ACK' as const, 'RST' as const),
  code,
  messageId: fc.integer({ min: 0, max: 0xffff }),
  token: fc.uint8Array({ maxLength: 8 }),
  options: fc.array(fc.record({ number: optionNumber, value: fc.uint8Array({ maxLength: 24 }) }), { maxLength: 8 }),
  payload: fc.uint8Array({ maxLength: 128 }),
});

/** Options in wire order: by number, equal numbers in the order given (RFC 7252 §3.1). */
function wireOrder(options: CoapMessage['options']): string[] {
  return options
    .map((o, i) => ({ ...o, i }))
    .sort((a, b) => a.number - b.number || a.i - b.i)
    .map((o) => `${o.number}:${Buffer.from(o.value).toString('hex')}`);
}

function same(a: CoapMessage, b: CoapMessage): boolean {
  return (
    a.type === b.type &&
    a.code === b.code &&
    a.messageId === b.messageId &&
    Buffer.compare(a.token, b.token) === 0 &&
    Buffer.compare(a.payload, b.payload) === 0 &&
    JSON.stringify(wireOrder(a.options)) === JSON.stringify(wireOrder(b.options))
  );
}

const isCoapFormatError = (error: unknown): boolean => error instanceof CoapFormatError;

describe('fuzz: CoAP codec', () => {
  it('decodes what it encodes', () => {
    assertDecodesWhatItEncodes(message, encodeMessage, decodeMessage, same);
  });

  it('random and mutated datagrams raise only CoapFormatError, in decoding and in reading the options the host reads', () => {
    assertFuzz(
      fc.property(hostileBytes(message.map(encodeMessage)), (bytes) => {
        withinMemory(() =>
          onlyTypedErrors(() => {
            const decoded = decodeMessage(bytes);
            for (const read of [
              block1Of,
              block2Of,
              contentFormatOf,
              observeOf,
              uriPathOf,
              (m: CoapMessage) => getUintOption(m, OPTION.SIZE2),
            ]) {
              onlyTypedErrors(() => read(decoded), isCoapFormatError);
            }
          }, isCoapFormatError),
        );
      }),
    );
  });
});
