import { generate } from 'coap-packet';
import { describe, expect, it } from 'vitest';
import {
  block1Option,
  CODE,
  encodeMessage,
  OPTION,
  qBlock1Of,
  qBlock1Option,
  decodeMessage,
  uriPathOptions,
  type CoapMessage,
} from '../../../protocol/coap';

/** What coap-packet, which encoded our messages before, makes of the same message. */
function byCoapPacket(message: CoapMessage): Uint8Array {
  return generate({
    confirmable: message.type === 'CON',
    ack: message.type === 'ACK',
    reset: message.type === 'RST',
    code: message.code,
    messageId: message.messageId,
    token: Buffer.from(message.token),
    options: message.options.map((o) => ({ name: String(o.number), value: Buffer.from(o.value) })),
    payload: Buffer.from(message.payload),
  });
}

const base: CoapMessage = {
  type: 'CON',
  code: CODE.PUT,
  messageId: 0x1234,
  token: Uint8Array.of(1, 2, 3, 4),
  options: [],
  payload: new Uint8Array(0),
};

describe('encodeMessage (RFC 7252 §3)', () => {
  it.each<[string, Partial<CoapMessage>]>([
    ['an empty ACK', { type: 'ACK', code: CODE.EMPTY, token: new Uint8Array(0) }],
    [
      'a NON firmware block with Q-Block1 and a Request-Tag',
      {
        type: 'NON',
        options: [
          ...uriPathOptions('fw/data'),
          qBlock1Option({ num: 1000, more: true, size: 1024 }),
          { number: OPTION.REQUEST_TAG, value: Uint8Array.of(9, 8, 7, 6) },
        ],
        payload: Uint8Array.from({ length: 1024 }, (_, i) => i & 0xff),
      },
    ],
    [
      'options out of order, a repeated one, a 300-byte value and an 8-byte token',
      {
        token: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8),
        options: [
          block1Option({ num: 3, more: false, size: 64 }),
          { number: OPTION.URI_PATH, value: new TextEncoder().encode('a') },
          { number: OPTION.URI_PATH, value: new Uint8Array(300).fill(0x62) },
          { number: 2049, value: Uint8Array.of(1) },
        ],
        payload: Uint8Array.of(0xff),
      },
    ],
    ['a response code', { type: 'ACK', code: CODE.REQUEST_ENTITY_INCOMPLETE, messageId: 0xffff }],
  ])('writes %s as coap-packet did', (_name, overrides) => {
    const message = { ...base, ...overrides };
    expect(Buffer.from(encodeMessage(message)).equals(Buffer.from(byCoapPacket(message)))).toBe(true);
  });

  it('keeps repeated options in their order and round-trips through the decoder', () => {
    const message = {
      ...base,
      options: [...uriPathOptions('fw/data'), qBlock1Option({ num: 5, more: false, size: 256 })],
      payload: Uint8Array.of(1, 2),
    };
    const decoded = decodeMessage(encodeMessage(message));
    expect(
      decoded.options.filter((o) => o.number === OPTION.URI_PATH).map((o) => new TextDecoder().decode(o.value)),
    ).toEqual(['fw', 'data']);
    expect(qBlock1Of(decoded)).toEqual({ num: 5, more: false, size: 256 });
  });

  it('refuses a token over 8 bytes, a code that is not c.dd and a message id over 16 bits', () => {
    expect(() => encodeMessage({ ...base, token: new Uint8Array(9) })).toThrow(/longer than 8/);
    expect(() => encodeMessage({ ...base, code: '2.5' })).toThrow(/c\.dd/);
    expect(() => encodeMessage({ ...base, messageId: 0x10000 })).toThrow(/out of range/);
  });
});
