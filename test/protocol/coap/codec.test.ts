import { describe, expect, it } from 'vitest';
import {
  block1Of,
  block1Option,
  block2Of,
  block2Option,
  CODE,
  CoapFormatError,
  contentFormatOf,
  contentFormatOption,
  decodeBlock,
  decodeMessage,
  emptyMessage,
  encodeBlock,
  encodeMessage,
  encodeUint,
  largestBlockSizeAtMost,
  observeOf,
  observeOption,
  OPTION,
  uriPathOf,
  uriPathOptions,
} from '../../../main/devices/coap';

describe('CoAP codec', () => {
  it('round-trips a request with path, content format, block and observe options', () => {
    const bytes = encodeMessage({
      type: 'CON',
      code: CODE.PUT,
      messageId: 0xbeef,
      token: Uint8Array.from([1, 2, 3, 4]),
      options: [
        block1Option({ num: 37, more: true, size: 1024 }),
        ...uriPathOptions('/fw/data'),
        contentFormatOption(60),
        observeOption(0),
      ],
      payload: Uint8Array.from([9, 8, 7]),
    });
    const message = decodeMessage(bytes);
    expect(message.type).toBe('CON');
    expect(message.code).toBe('0.03');
    expect(message.messageId).toBe(0xbeef);
    expect([...message.token]).toEqual([1, 2, 3, 4]);
    expect(uriPathOf(message)).toBe('fw/data');
    expect(contentFormatOf(message)).toBe(60);
    expect(observeOf(message)).toBe(0);
    expect(block1Of(message)).toEqual({ num: 37, more: true, size: 1024 });
    expect(block2Of(message)).toBeUndefined();
    expect([...message.payload]).toEqual([9, 8, 7]);
  });

  it('encodes an empty ACK as four bytes', () => {
    const bytes = encodeMessage(emptyMessage('ACK', 7));
    expect([...bytes]).toEqual([0x60, 0x00, 0x00, 0x07]);
    expect(decodeMessage(bytes)).toMatchObject({ type: 'ACK', code: '0.00', messageId: 7 });
  });

  it('rejects what is not CoAP', () => {
    expect(() => decodeMessage(Uint8Array.from([1, 2]))).toThrow(CoapFormatError);
    expect(() => decodeMessage(Uint8Array.from([0x80, 1, 0, 0]))).toThrow(CoapFormatError);
    expect(() => decodeMessage(Uint8Array.from([0x4f, 1, 0, 0]))).toThrow(CoapFormatError);
  });

  it('encodes uints in their shortest form', () => {
    expect([...encodeUint(0)]).toEqual([]);
    expect([...encodeUint(60)]).toEqual([60]);
    expect([...encodeUint(0x1234)]).toEqual([0x12, 0x34]);
  });
});

describe('RFC 7959 block options', () => {
  it('packs NUM, M and SZX as the RFC examples do', () => {
    // NUM 0, M 0, SZX 6 (1024): one byte 0x06.
    expect([...encodeBlock({ num: 0, more: false, size: 1024 })]).toEqual([0x06]);
    // NUM 1, M 1, SZX 2 (64): 0x1a.
    expect([...encodeBlock({ num: 1, more: true, size: 64 })]).toEqual([0x1a]);
    // NUM 20 needs two bytes.
    expect([...encodeBlock({ num: 20, more: false, size: 16 })]).toEqual([0x01, 0x40]);
    // NUM up to 2^20-1 fits three bytes.
    expect(decodeBlock(encodeBlock({ num: 0xfffff, more: true, size: 512 }))).toEqual({
      num: 0xfffff,
      more: true,
      size: 512,
    });
  });

  it('refuses sizes that are not 16..1024 and the reserved SZX 7', () => {
    expect(() => encodeBlock({ num: 0, more: false, size: 2048 })).toThrow(RangeError);
    expect(() => encodeBlock({ num: 0, more: false, size: 100 })).toThrow(RangeError);
    expect(() => decodeBlock(Uint8Array.from([0x07]))).toThrow(CoapFormatError);
  });

  it('decodes an absent value as block 0 of 16 bytes', () => {
    expect(decodeBlock(new Uint8Array(0))).toEqual({ num: 0, more: false, size: 16 });
  });

  it('picks the largest power-of-two block within a limit', () => {
    expect(largestBlockSizeAtMost(1024)).toBe(1024);
    expect(largestBlockSizeAtMost(4096)).toBe(1024);
    expect(largestBlockSizeAtMost(1000)).toBe(512);
    expect(largestBlockSizeAtMost(16)).toBe(16);
  });

  it('carries Block2 in option 23 and Block1 in option 27', () => {
    expect(block2Option({ num: 0, more: false, size: 16 }).number).toBe(OPTION.BLOCK2);
    expect(block1Option({ num: 0, more: false, size: 16 }).number).toBe(OPTION.BLOCK1);
  });
});
