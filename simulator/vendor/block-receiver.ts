import { block1Of, block1Option, CODE, type BlockOption, type CoapMessage } from '../../protocol/coap';
import type { ResourceResponse } from '../coap/types';
import { textResponse } from './responses';

export interface BlockReceiverOptions {
  /** The device's largest block: it answers with this SZX when the host sends larger ones. */
  maxBlockSize: number;
  /** The largest body it holds. */
  maxSize: number;
  what: string;
}

export type BlockOutcome =
  | { done: false; response: ResourceResponse; offset: number; end: number }
  | { done: true; body: Uint8Array; block: BlockOption | undefined; offset: number; end: number };

/**
 * A Block1 body received one block at a time, in order, as a small device with one block buffer
 * takes it (RFC 7959 stop-and-wait). The first block may be larger than the device's block: RFC
 * 7959 §2.3 lets the host send it before it knows, and the device keeps it and answers with its
 * own SZX, so the host continues at the matching larger block number. Later blocks larger than the
 * device's get 4.13 with its size; a block past the bytes in hand gets 4.08; a block at an offset
 * already received is a retransmission and is answered again.
 */
export class SequentialBlockReceiver {
  private chunks: Uint8Array[] = [];
  private received = 0;

  constructor(private readonly options: BlockReceiverOptions) {}

  get bytesReceived(): number {
    return this.received;
  }

  reset(): void {
    this.chunks = [];
    this.received = 0;
  }

  /** Where the block of `message` would end, before it is received (0 when it carries none). */
  static endOf(message: CoapMessage): number {
    try {
      const block = block1Of(message);
      return block === undefined ? message.payload.length : block.num * block.size + message.payload.length;
    } catch {
      return 0;
    }
  }

  receive(message: CoapMessage): BlockOutcome {
    let block: BlockOption | undefined;
    try {
      block = block1Of(message);
    } catch {
      return this.refuse(CODE.BAD_REQUEST, 'The Block1 option is malformed.');
    }
    const payload = message.payload;
    if (block === undefined) {
      // One request holding the whole body.
      this.reset();
      if (payload.length > this.options.maxSize)
        return this.refuse(
          CODE.REQUEST_ENTITY_TOO_LARGE,
          `${this.options.what} is ${payload.length} bytes; this device holds ${this.options.maxSize}.`,
        );
      return { done: true, body: payload, block: undefined, offset: 0, end: payload.length };
    }
    const { maxBlockSize } = this.options;
    if (block.num > 0 && block.size > maxBlockSize) {
      return this.refuse(
        CODE.REQUEST_ENTITY_TOO_LARGE,
        `Blocks of ${block.size} bytes are larger than the ${maxBlockSize} this device takes.`,
        [block1Option({ num: 0, more: false, size: maxBlockSize })],
      );
    }
    if (block.more && payload.length !== block.size)
      return this.refuse(
        CODE.BAD_REQUEST,
        `Block ${block.num} carries ${payload.length} bytes; blocks before the last carry exactly ${block.size}.`,
      );
    const offset = block.num * block.size;
    const end = offset + payload.length;
    if (offset === 0) this.reset();
    if (offset > this.received) {
      return this.refuse(
        CODE.REQUEST_ENTITY_INCOMPLETE,
        `Block ${block.num} starts at byte ${offset}, but this device has ${this.received} bytes: send the blocks in order.`,
      );
    }
    if (end > this.options.maxSize)
      return this.refuse(
        CODE.REQUEST_ENTITY_TOO_LARGE,
        `${this.options.what} would pass ${this.options.maxSize} bytes, the most this device holds.`,
      );
    if (offset < this.received) {
      // A retransmission of a block in hand (its answer was lost): keep what came first.
      if (end > this.received)
        return this.refuse(
          CODE.BAD_REQUEST,
          `Block ${block.num} overlaps the end of the bytes received; restart at block 0.`,
        );
    } else {
      this.chunks.push(payload.slice());
      this.received = end;
    }
    const answerSize = Math.min(block.size, maxBlockSize);
    if (block.more)
      return {
        done: false,
        offset,
        end,
        response: { code: CODE.CONTINUE, options: [block1Option({ num: block.num, more: true, size: answerSize })] },
      };
    const body = concat(this.chunks, this.received);
    this.reset();
    return { done: true, body, block: { num: block.num, more: false, size: answerSize }, offset, end };
  }

  private refuse(code: string, message: string, options: ResourceResponse['options'] = []): BlockOutcome {
    return { done: false, offset: 0, end: 0, response: { ...textResponse(code, message), options } };
  }
}

/** The Block1 option of the final answer, echoing the last block (aiocoap wants it). */
export function finalBlockOptions(block: BlockOption | undefined): ResourceResponse['options'] {
  return block === undefined ? [] : [block1Option(block)];
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
