import { parse, type OptionName } from 'coap-packet';
import { BLOCK_SZX_MAX, CODE, COAP_VERSION, MESSAGE_ID_MODULUS, OPTION } from './parameters';

/**
 * CoAP message codec for the host engine and the simulator. coap-packet parses the wire format
 * and encodeMessage writes it; this module gives messages a typed shape and encodes the options we use (Uri-Path,
 * Content-Format, Block1/Block2, Observe, Size1/Size2) so that no caller hand-writes option bytes.
 */

export type CoapType = 'CON' | 'NON' | 'ACK' | 'RST';

export interface CoapOption {
  number: number;
  value: Uint8Array;
}

export interface CoapMessage {
  type: CoapType;
  /** "c.dd": '0.01' GET ... '2.05' Content ... see CODE. */
  code: string;
  messageId: number;
  token: Uint8Array;
  options: CoapOption[];
  payload: Uint8Array;
}

/** A datagram or frame that is not a CoAP message; receivers drop it (RFC 7252 §4.2). */
export class CoapFormatError extends Error {
  override readonly name = 'CoapFormatError';
}

// coap-packet reports known options by name; map them back to numbers. Record<OptionName, …>
// makes the compiler tell us when coap-packet names an option this table lacks.
const OPTION_NUMBER_BY_NAME: Record<OptionName, number> = {
  'If-Match': 1,
  'Uri-Host': 3,
  ETag: 4,
  'If-None-Match': 5,
  Observe: 6,
  'Uri-Port': 7,
  'Location-Path': 8,
  OSCORE: 9,
  'Uri-Path': 11,
  'Content-Format': 12,
  'Max-Age': 14,
  'Uri-Query': 15,
  'Hop-Limit': 16,
  Accept: 17,
  'Q-Block1': 19,
  'Location-Query': 20,
  Block2: 23,
  Block1: 27,
  Size2: 28,
  'Q-Block2': 31,
  'Proxy-Uri': 35,
  'Proxy-Scheme': 39,
  Size1: 60,
  'No-Response': 258,
  'OCF-Accept-Content-Format-Version': 2049,
  'OCF-Content-Format-Version': 2053,
};

function optionNumber(name: string | number): number {
  if (typeof name === 'number') return name;
  const known = OPTION_NUMBER_BY_NAME[name as OptionName];
  if (known !== undefined) return known;
  const parsed = Number.parseInt(name, 10);
  if (!Number.isInteger(parsed)) throw new CoapFormatError(`unknown option ${name}`);
  return parsed;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Largest message encodeMessage makes: a UDP datagram; links enforce their own smaller limits. */
const MAX_ENCODED_LENGTH = 65507;

const TYPE_NUMBER: Record<CoapType, number> = { CON: 0, NON: 1, ACK: 2, RST: 3 };

/** "c.dd" → the code byte (class in the top 3 bits, detail in the low 5). */
function codeByte(code: string): number {
  const match = /^([0-7])\.(\d\d)$/.exec(code);
  const detail = match ? Number(match[2]) : Number.NaN;
  if (!match || detail > 31) throw new RangeError(`CoAP code ${code} is not c.dd with class 0 to 7 and detail 0 to 31`);
  return (Number(match[1]) << 5) | detail;
}

/** RFC 7252 §3.1: a delta or length nibble, and its 0, 1 or 2 extension bytes. */
function nibble(value: number): { nibble: number; extension: number[] } {
  if (value < 13) return { nibble: value, extension: [] };
  if (value < 269) return { nibble: 13, extension: [value - 13] };
  if (value < 65805) return { nibble: 14, extension: [(value - 269) >> 8, (value - 269) & 0xff] };
  throw new RangeError(`option delta or length ${value} is too large`);
}

/**
 * RFC 7252 §3 written directly (decoding stays with coap-packet): header, token, options sorted by
 * number (repeated options keep their order) with delta encoding, and the payload after 0xFF.
 * coap-packet's generate turned every payload into a string on the way, which cost more than the
 * rest of a 1024-byte block's journey through the host.
 */
export function encodeMessage(message: CoapMessage): Uint8Array {
  if (message.messageId < 0 || message.messageId >= MESSAGE_ID_MODULUS)
    throw new RangeError(`message id ${message.messageId} out of range`);
  if (message.token.length > 8) throw new RangeError(`a token of ${message.token.length} bytes is longer than 8`);
  const options = message.options
    .map((option, index) => ({ option, index }))
    .sort((a, b) => a.option.number - b.option.number || a.index - b.index);
  const head: number[] = [
    (COAP_VERSION << 6) | (TYPE_NUMBER[message.type] << 4) | message.token.length,
    codeByte(message.code),
    message.messageId >> 8,
    message.messageId & 0xff,
    ...message.token,
  ];
  let previous = 0;
  for (const { option } of options) {
    const delta = nibble(option.number - previous);
    const length = nibble(option.value.length);
    head.push((delta.nibble << 4) | length.nibble, ...delta.extension, ...length.extension, ...option.value);
    previous = option.number;
  }
  if (message.payload.length > 0) head.push(0xff);
  const size = head.length + message.payload.length;
  if (size > MAX_ENCODED_LENGTH) throw new RangeError(`a ${size}-byte CoAP message is larger than a UDP datagram`);
  const bytes = new Uint8Array(size);
  bytes.set(head, 0);
  bytes.set(message.payload, head.length);
  return bytes;
}

export function decodeMessage(bytes: Uint8Array): CoapMessage {
  if (bytes.length < 4) throw new CoapFormatError('shorter than a CoAP header');
  if (bytes[0]! >> 6 !== COAP_VERSION) throw new CoapFormatError('not CoAP version 1');
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(asBuffer(bytes));
  } catch (error) {
    throw new CoapFormatError(`malformed CoAP message: ${(error as Error).message}`);
  }
  const type: CoapType = parsed.confirmable ? 'CON' : parsed.ack ? 'ACK' : parsed.reset ? 'RST' : 'NON';
  return {
    type,
    code: parsed.code,
    messageId: parsed.messageId,
    token: parsed.token,
    options: parsed.options.map((o) => ({ number: optionNumber(o.name), value: o.value })),
    payload: parsed.payload,
  };
}

// ---- option values ----------------------------------------------------------------------------

/** RFC 7252 §3.2 uint: big-endian, shortest form (0 is the empty value). */
export function encodeUint(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new RangeError(`uint option value ${value} out of range`);
  const bytes: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Uint8Array.from(bytes);
}

export function decodeUint(bytes: Uint8Array): number {
  if (bytes.length > 4) throw new CoapFormatError('uint option longer than 4 bytes');
  let value = 0;
  for (const byte of bytes) value = value * 256 + byte;
  return value;
}

export function getOption(message: CoapMessage, number: number): Uint8Array | undefined {
  return message.options.find((o) => o.number === number)?.value;
}

export function getOptions(message: CoapMessage, number: number): Uint8Array[] {
  return message.options.filter((o) => o.number === number).map((o) => o.value);
}

export function uintOption(number: number, value: number): CoapOption {
  return { number, value: encodeUint(value) };
}

export function getUintOption(message: CoapMessage, number: number): number | undefined {
  const value = getOption(message, number);
  return value === undefined ? undefined : decodeUint(value);
}

/** The few paths a host and a device use, encoded once: an upload asks for one per block. */
const uriPathCache = new Map<string, readonly CoapOption[]>();
const URI_PATH_CACHE_SIZE = 64;

/** 'fw/data' → two Uri-Path options; leading and trailing slashes are ignored. */
export function uriPathOptions(path: string): CoapOption[] {
  let options = uriPathCache.get(path);
  if (options === undefined) {
    options = path
      .split('/')
      .filter((segment) => segment.length > 0)
      .map((segment) => ({ number: OPTION.URI_PATH, value: new TextEncoder().encode(segment) }));
    if (uriPathCache.size >= URI_PATH_CACHE_SIZE) uriPathCache.clear();
    uriPathCache.set(path, options);
  }
  // A new array each time (callers may add to it); the option values are shared and never changed.
  return options.slice();
}

/** The request's Uri-Path segments joined by '/', without a leading slash ('' for the root). */
export function uriPathOf(message: CoapMessage): string {
  return getOptions(message, OPTION.URI_PATH)
    .map((segment) => new TextDecoder().decode(segment))
    .join('/');
}

export function contentFormatOption(format: number): CoapOption {
  return uintOption(OPTION.CONTENT_FORMAT, format);
}

export function contentFormatOf(message: CoapMessage): number | undefined {
  return getUintOption(message, OPTION.CONTENT_FORMAT);
}

export function observeOption(value: number): CoapOption {
  return uintOption(OPTION.OBSERVE, value);
}

export function observeOf(message: CoapMessage): number | undefined {
  return getUintOption(message, OPTION.OBSERVE);
}

// ---- RFC 7959 block options ---------------------------------------------------------------------

export interface BlockOption {
  /** Block number: the block covers bytes NUM × size … NUM × size + size - 1. */
  num: number;
  /** M: more blocks follow (Block1 in a request, Block2 in a response). */
  more: boolean;
  /** Block size in bytes, 16 to 1024. */
  size: number;
}

export function blockSizeToSzx(size: number): number {
  const szx = Math.log2(size) - 4;
  if (!Number.isInteger(szx) || szx < 0 || szx > BLOCK_SZX_MAX)
    throw new RangeError(`block size ${size} is not 16, 32, … 1024`);
  return szx;
}

export function szxToBlockSize(szx: number): number {
  return 2 ** (szx + 4);
}

/** The largest block size that is a power of two, at least 16, and at most `limit`. */
export function largestBlockSizeAtMost(limit: number): number {
  let size = 16;
  while (size * 2 <= limit && size < szxToBlockSize(BLOCK_SZX_MAX)) size *= 2;
  return size;
}

/** RFC 7959 §2.2: NUM (up to 20 bits) << 4 | M << 3 | SZX, as a uint. */
export function encodeBlock(block: BlockOption): Uint8Array {
  if (!Number.isInteger(block.num) || block.num < 0 || block.num >= 1 << 20)
    throw new RangeError(`block number ${block.num} out of range`);
  return encodeUint(block.num * 16 + (block.more ? 8 : 0) + blockSizeToSzx(block.size));
}

export function decodeBlock(bytes: Uint8Array): BlockOption {
  if (bytes.length > 3) throw new CoapFormatError('block option longer than 3 bytes');
  const value = decodeUint(bytes);
  const szx = value & 7;
  if (szx > BLOCK_SZX_MAX) throw new CoapFormatError('block option with reserved SZX 7');
  return { num: value >>> 4, more: (value & 8) !== 0, size: szxToBlockSize(szx) };
}

export function block1Option(block: BlockOption): CoapOption {
  return { number: OPTION.BLOCK1, value: encodeBlock(block) };
}

export function block2Option(block: BlockOption): CoapOption {
  return { number: OPTION.BLOCK2, value: encodeBlock(block) };
}

export function block1Of(message: CoapMessage): BlockOption | undefined {
  const value = getOption(message, OPTION.BLOCK1);
  return value === undefined ? undefined : decodeBlock(value);
}

export function block2Of(message: CoapMessage): BlockOption | undefined {
  const value = getOption(message, OPTION.BLOCK2);
  return value === undefined ? undefined : decodeBlock(value);
}

// ---- codes ----------------------------------------------------------------------------------------

/** 0.01 … 0.31 are requests. */
export function isRequestCode(code: string): boolean {
  return code.startsWith('0.') && code !== CODE.EMPTY;
}

/** 4.xx and 5.xx. */
export function isErrorCode(code: string): boolean {
  return code.startsWith('4.') || code.startsWith('5.');
}

/** Empty ACK or RST (code 0.00): RFC 7252 §4.1. */
export function emptyMessage(type: 'ACK' | 'RST', messageId: number): CoapMessage {
  return { type, code: CODE.EMPTY, messageId, token: new Uint8Array(0), options: [], payload: new Uint8Array(0) };
}

// ---- RFC 9177 Q-Block1 ----------------------------------------------------------------------------

/** Q-Block1 has Block1's value format (RFC 9177 §4.2). */
export function qBlock1Option(block: BlockOption): CoapOption {
  return { number: OPTION.Q_BLOCK1, value: encodeBlock(block) };
}

export function qBlock1Of(message: CoapMessage): BlockOption | undefined {
  const value = getOption(message, OPTION.Q_BLOCK1);
  return value === undefined ? undefined : decodeBlock(value);
}
