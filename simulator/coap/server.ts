import { createHash, randomInt } from 'node:crypto';
import {
  block2Of,
  block2Option,
  CODE,
  contentFormatOption,
  decodeBlock,
  decodeMessage,
  emptyMessage,
  encodeMessage,
  isRequestCode,
  largestBlockSizeAtMost,
  MESSAGE_ID_MODULUS,
  observeOf,
  observeOption,
  OBSERVE_DEREGISTER,
  OBSERVE_REGISTER,
  OPTION,
  CONTENT_FORMAT_MISSING_BLOCKS,
  encodeMissingBlocks,
  getOption,
  qBlock1Of,
  qBlock1Option,
  uintOption,
  uriPathOf,
  type CoapMessage,
  type CoapOption,
} from '../../protocol/coap';
import { encodeCbor } from '../../domain/files/cbor';
import { CONTENT_FORMAT_CBOR } from '../../protocol/constants';
import { DedupCache } from './dedup-cache';
import { ObserverRegistry } from './observers';
import { QBlock1Sets, type SetAnswer } from './q-block1-sets';
import type { ReceivedRequest, ResourceResponse, RequestHandler } from './types';

export interface CoapServerOptions {
  send(message: Uint8Array, peer: string): void;
  handle: RequestHandler;
  /** Block2 size when the response is larger and the request names none (the device's maxBlockSize). */
  blockSize: number;
  /** Message ids remembered per peer for duplicate detection. */
  dedupCapacity: number;
  /** Blocks in one Q-Block1 payload set, as GET /info says. Default Q_BLOCK_MAX_PAYLOADS. */
  qBlock1MaxPayloads?: number;
}

export interface CoapServerStats {
  requests: number;
  duplicatesAnswered: number;
  duplicatesIgnored: number;
  malformed: number;
}

/**
 * The device's CoAP endpoint: one request at a time, as a microcontroller handles them (which also
 * keeps resource handlers free of races), CON answered with a piggybacked ACK, duplicates answered
 * from the cache without acting twice, large responses cut into Block2 blocks, Observe.
 */
export class CoapServer {
  readonly stats: CoapServerStats = { requests: 0, duplicatesAnswered: 0, duplicatesIgnored: 0, malformed: 0 };
  private readonly dedup: DedupCache;
  private readonly observers = new ObserverRegistry();
  private readonly qBlock1Sets: QBlock1Sets;
  private queue: Promise<void> = Promise.resolve();
  /** Bumped by reset(): requests queued before a reboot are forgotten, not answered. */
  private epoch = 0;
  private nextMessageId = randomInt(MESSAGE_ID_MODULUS);

  constructor(private readonly options: CoapServerOptions) {
    this.dedup = new DedupCache(options.dedupCapacity);
    this.qBlock1Sets = new QBlock1Sets(options.qBlock1MaxPayloads);
  }

  receive(bytes: Uint8Array, peer: string): void {
    let message: CoapMessage;
    try {
      message = decodeMessage(bytes);
    } catch {
      // RFC 7252 §4.2: a message that does not parse is silently ignored.
      this.stats.malformed++;
      return;
    }
    if (message.type === 'RST') {
      this.observers.rejected(peer, message.messageId);
      return;
    }
    if (message.type === 'ACK') return;
    if (!isRequestCode(message.code)) {
      // An empty CON is a "CoAP ping" (RFC 7252 §4.3): answer with RST.
      if (message.type === 'CON' && message.code === CODE.EMPTY)
        this.options.send(encodeMessage(emptyMessage('RST', message.messageId)), peer);
      return;
    }
    const cached = this.dedup.lookup(peer, message.messageId);
    if (cached === null) {
      this.stats.duplicatesIgnored++;
      return;
    }
    if (cached !== undefined) {
      this.stats.duplicatesAnswered++;
      this.options.send(cached, peer);
      return;
    }
    this.dedup.begin(peer, message.messageId);
    this.stats.requests++;
    const epoch = this.epoch;
    this.queue = this.queue.then(() => this.process(message, peer, epoch));
  }

  /** Sends the current representation of `path` to its observers. */
  notify(path: string, response: ResourceResponse): void {
    for (const observer of this.observers.of(path)) {
      const messageId = this.allocateMessageId();
      this.observers.sent(observer, messageId);
      const options: CoapOption[] = [observeOption(this.observers.nextSequence()), ...(response.options ?? [])];
      if (response.contentFormat !== undefined) options.push(contentFormatOption(response.contentFormat));
      const notification: CoapMessage = {
        type: 'NON',
        code: response.code,
        messageId,
        token: observer.token,
        options,
        payload: response.payload ?? new Uint8Array(0),
      };
      this.options.send(encodeMessage(notification), observer.peer);
    }
  }

  /** A reboot: the device forgets message ids, observers and whatever was queued. */
  reset(): void {
    this.epoch++;
    this.dedup.clear();
    this.observers.clear();
    this.qBlock1Sets.clear();
    this.nextMessageId = randomInt(MESSAGE_ID_MODULUS);
  }

  private async process(message: CoapMessage, peer: string, epoch: number): Promise<void> {
    if (epoch !== this.epoch) return;
    const qBlock1 = message.options.some((o) => o.number === OPTION.Q_BLOCK1);
    // Q-Block1 (RFC 9177) carries what Block1 carries: resources read Block1, and the answer names
    // the block in the option the client used.
    const request: ReceivedRequest = {
      peer,
      message: qBlock1 ? withOptionRenumbered(message, OPTION.Q_BLOCK1, OPTION.BLOCK1) : message,
      method: message.code,
      path: uriPathOf(message),
    };
    let response: ResourceResponse | undefined;
    try {
      response = refuseOptions(message) ?? (await this.options.handle(request));
      if (response && qBlock1 && response.options)
        response = { ...response, options: renumbered(response.options, OPTION.BLOCK1, OPTION.Q_BLOCK1) };
    } catch (error) {
      response = internalError(error);
    }
    if (epoch !== this.epoch) return;
    if (response === undefined) {
      // Swallowed (the cable came out with it in hand): not acted on, so a retransmission that
      // gets through later must be handled, not ignored as a duplicate.
      this.dedup.forget(peer, message.messageId);
      return;
    }
    if (qBlock1) {
      response = this.answerPayloadSet(message, peer, request.path, response);
      // A NON payload in the middle of its set: stored, and answered by the set's answer. Its
      // message id stays remembered without a response, so a duplicate of it is ignored.
      if (response === undefined) return;
    }
    const reply = this.buildReply(request, response);
    const bytes = encodeMessage(reply);
    this.dedup.complete(peer, message.messageId, bytes);
    this.options.send(bytes, peer);
    if (response.after) await response.after();
  }

  /**
   * RFC 9177 §4.4 payload sets (docs/device-protocol.md 2.2): the resource answered this payload as
   * a Block1 block; a 2.31 or a 4.08 (the block lies outside its receive window: not stored) becomes
   * the set's answer, or none. Final answers and other errors go to the host as they are.
   */
  private answerPayloadSet(
    message: CoapMessage,
    peer: string,
    path: string,
    response: ResourceResponse,
  ): ResourceResponse | undefined {
    const stored = response.code === CODE.CONTINUE;
    if (!stored && response.code !== CODE.REQUEST_ENTITY_INCOMPLETE) return response;
    // Malformed Q-Block1 was refused before the resource ran.
    const block = qBlock1Of(message)!;
    const answer: SetAnswer = this.qBlock1Sets.record(
      peer,
      path,
      getOption(message, OPTION.REQUEST_TAG),
      block,
      message.type === 'CON',
      stored,
    );
    if (answer.kind === 'silent') return undefined;
    if (answer.kind === 'continue')
      return { code: CODE.CONTINUE, options: [qBlock1Option({ num: answer.num, more: true, size: block.size })] };
    return {
      code: CODE.REQUEST_ENTITY_INCOMPLETE,
      contentFormat: CONTENT_FORMAT_MISSING_BLOCKS,
      payload: encodeMissingBlocks(answer.blocks),
    };
  }

  private buildReply(request: ReceivedRequest, response: ResourceResponse): CoapMessage {
    const { message } = request;
    const options: CoapOption[] = [...(response.options ?? [])];
    let payload = response.payload ?? new Uint8Array(0);
    let code = response.code;
    if (response.observable && message.code === CODE.GET) {
      const observe = observeOf(message);
      if (observe === OBSERVE_REGISTER && code.startsWith('2.')) {
        this.observers.add({ peer: request.peer, token: message.token, path: request.path });
        options.push(observeOption(this.observers.nextSequence()));
      } else if (observe === OBSERVE_DEREGISTER) {
        this.observers.remove(request.peer, message.token);
      }
    }
    const block2 = safeBlock2(message);
    const size = Math.min(block2?.size ?? this.options.blockSize, largestBlockSizeAtMost(this.options.blockSize));
    if (code.startsWith('2.') && (block2 !== undefined || payload.length > size)) {
      const num = block2 === undefined ? 0 : (block2.num * block2.size) / size;
      const start = num * size;
      if (!Number.isInteger(num) || start >= Math.max(payload.length, 1)) {
        code = CODE.BAD_REQUEST;
        payload = new Uint8Array(0);
      } else {
        const end = Math.min(payload.length, start + size);
        options.push(block2Option({ num, more: end < payload.length, size }));
        if (num === 0) options.push(uintOption(OPTION.SIZE2, payload.length));
        // The representation may change between blocks (/info's state): the ETag lets the host notice.
        options.push({ number: OPTION.ETAG, value: etagOf(payload) });
        payload = payload.subarray(start, end);
      }
    }
    if (response.contentFormat !== undefined && payload.length > 0)
      options.push(contentFormatOption(response.contentFormat));
    const confirmable = message.type === 'CON';
    return {
      type: confirmable ? 'ACK' : 'NON',
      code,
      messageId: confirmable ? message.messageId : this.allocateMessageId(),
      token: message.token,
      options,
      payload,
    };
  }

  private allocateMessageId(): number {
    const id = this.nextMessageId;
    this.nextMessageId = (this.nextMessageId + 1) % MESSAGE_ID_MODULUS;
    return id;
  }
}

/** Critical options (odd numbers) this device acts on or may safely ignore; any other gets 4.02. */
const UNDERSTOOD_CRITICAL_OPTIONS = new Set<number>([
  OPTION.URI_HOST,
  OPTION.URI_PORT,
  OPTION.URI_PATH,
  OPTION.URI_QUERY,
  OPTION.ACCEPT,
  OPTION.BLOCK2,
  OPTION.BLOCK1,
  OPTION.Q_BLOCK1,
]);

/** RFC 7252 §5.4.1 and RFC 7959 §2.2: refusals that come before any resource sees the request. */
function refuseOptions(message: CoapMessage): ResourceResponse | undefined {
  if (message.options.some((o) => o.number % 2 === 1 && !UNDERSTOOD_CRITICAL_OPTIONS.has(o.number)))
    return { code: CODE.BAD_OPTION };
  if (
    message.options.some((o) => o.number === OPTION.Q_BLOCK1) &&
    message.options.some((o) => o.number === OPTION.BLOCK1)
  ) {
    // RFC 9177 §4.1: a request carries one or the other.
    return {
      code: CODE.BAD_REQUEST,
      contentFormat: CONTENT_FORMAT_CBOR,
      payload: encodeCbor({ code: 'BAD_REQUEST', message: 'Q-Block1 and Block1 together.' }),
    };
  }
  for (const number of [OPTION.BLOCK1, OPTION.Q_BLOCK1, OPTION.BLOCK2]) {
    const value = message.options.find((o) => o.number === number)?.value;
    if (value === undefined) continue;
    try {
      decodeBlock(value);
    } catch {
      return {
        code: CODE.BAD_REQUEST,
        contentFormat: CONTENT_FORMAT_CBOR,
        payload: encodeCbor({
          code: 'BAD_REQUEST',
          message: 'A block option is malformed or uses the reserved SZX 7.',
        }),
      };
    }
  }
  return undefined;
}

function renumbered(options: readonly CoapOption[], from: number, to: number): CoapOption[] {
  return options.map((o) => (o.number === from ? { ...o, number: to } : o));
}

/** Options stay sorted by number in a message (the codec encodes deltas in order). */
function withOptionRenumbered(message: CoapMessage, from: number, to: number): CoapMessage {
  return { ...message, options: renumbered(message.options, from, to).sort((a, b) => a.number - b.number) };
}

/** Malformed Block2 was refused before the handler ran; its error response is not block-wise. */
function safeBlock2(message: CoapMessage): ReturnType<typeof block2Of> {
  try {
    return block2Of(message);
  } catch {
    return undefined;
  }
}

function etagOf(representation: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(representation).digest().subarray(0, 4));
}

function internalError(error: unknown): ResourceResponse {
  // The device must answer something: the host would otherwise retransmit into the same failure.
  return {
    code: CODE.INTERNAL_SERVER_ERROR,
    contentFormat: CONTENT_FORMAT_CBOR,
    payload: encodeCbor({
      code: 'INTERNAL_ERROR',
      message: `The device failed: ${(error as Error)?.message ?? String(error)}`,
    }),
  };
}
