import { randomInt } from 'node:crypto';
import {
  abortReason,
  DeviceDisconnectedError,
  DeviceError,
  DeviceTimeoutError,
  type DeviceErrorContext,
} from '../errors';
import { deviceErrorFromResponse } from './device-error';
import type { Link } from '../links/link';
import { SEPARATE_RESPONSE_TIMEOUT_MS } from '../../../protocol/constants';
import {
  CoapFormatError,
  decodeMessage,
  emptyMessage,
  encodeMessage,
  isErrorCode,
  isRequestCode,
  uriPathOptions,
  type CoapMessage,
} from '../../../protocol/coap/codec';
import type { CoapRequest, CoapResponse } from './messages';
import { ACK_RANDOM_FACTOR, CODE, MAX_RETRANSMIT, MESSAGE_ID_MODULUS } from '../../../protocol/coap/parameters';

export type { CoapRequest, CoapResponse } from './messages';

export { deviceErrorFromResponse };

export interface CoapEngineOptions {
  /** Overrides the link's ACK_TIMEOUT (tests use a few milliseconds). */
  ackTimeoutMs?: number;
  maxRetransmit?: number;
  separateResponseTimeoutMs?: number;
  /** Random in [0, 1) for the ACK timeout's spread; injectable so tests are repeatable. */
  random?: () => number;
  /** How the device is named in errors until identify() learns its serial number. */
  deviceName?: string;
}

export interface EngineStats {
  sent: number;
  retransmissions: number;
  received: number;
  /** Responses that matched no outstanding request: duplicates and late arrivals. */
  unmatched: number;
  malformed: number;
}

/** Where a CON/NON message from the device with a token we know goes (Observe notifications). */
export type NotificationListener = (message: CoapMessage) => void;

interface Exchange {
  /** performance.now() of the first transmission, for RTT samples. */
  sentAt: number;
  messageId: number;
  tokenKey: string;
  bytes: Uint8Array;
  step: string;
  tries: number;
  /** Retransmission timeout before spread and queue allowance, doubled on every try (RFC 7252 §4.2). */
  baseTimeoutMs: number;
  awaitingAck: boolean;
  timer: NodeJS.Timeout | undefined;
  acceptErrors: boolean;
  maxRetransmit: number;
  moreFollows: boolean;
  resolve: (response: CoapResponse) => void;
  reject: (error: unknown) => void;
  detachSignal: () => void;
}

/** Rough bytes on the wire per message byte on framed links: SLIP escapes ~1/128 of random data, plus frame overhead. */
const WIRE_OVERHEAD_FACTOR = 1.02;
const WIRE_OVERHEAD_BYTES = 8;
const RECENT_CON_MEMORY = 32;
const MAX_MEASURED_TIMEOUT_FACTOR = 8;

function tokenKeyOf(token: Uint8Array): string {
  // Our own tokens are 4 bytes, and an upload looks one up per block: a number is cheaper than hex.
  if (token.length <= 6) {
    let key = token.length;
    for (const byte of token) key = key * 256 + byte;
    return `n${key}`;
  }
  return Buffer.from(token.buffer, token.byteOffset, token.byteLength).toString('hex');
}

/**
 * The one CoAP client every link uses (RFC 7252 §4 messaging, §5 request/response): confirmable
 * requests with retransmission and exponential backoff, message ids and tokens, duplicate and
 * late response detection, separate responses, and routing of notifications. Block-wise transfer
 * and Observe are built on it (block1.ts, block2.ts, observe.ts).
 */
export class CoapEngine {
  /** Serial number once known; errors name the device with it. */
  deviceName: string;
  readonly stats: EngineStats = { sent: 0, retransmissions: 0, received: 0, unmatched: 0, malformed: 0 };
  private nextMessageId = randomInt(MESSAGE_ID_MODULUS);
  private nextToken = randomInt(0x100000000);
  private readonly byMessageId = new Map<number, Exchange>();
  private readonly byToken = new Map<string, Exchange>();
  private readonly notificationListeners = new Map<string, NotificationListener>();
  /** Message ids of CONs from the device we acknowledged, to acknowledge their duplicates again. */
  private readonly recentCon: number[] = [];
  private queuedBytes = 0;
  private readonly unsubscribe: (() => void)[];
  private readonly random: () => number;
  /** RFC 6298 smoothed RTT and its variation, ms; undefined until the first sample. */
  private srtt: number | undefined;
  private rttvar = 0;

  constructor(
    readonly link: Link,
    private readonly options: CoapEngineOptions = {},
  ) {
    this.deviceName = options.deviceName ?? `the device on ${link.description}`;
    this.random = options.random ?? Math.random;
    this.unsubscribe = [
      link.onMessage((bytes) => this.receive(bytes)),
      link.onClose((error) => this.linkClosed(error)),
    ];
  }

  context(step: string): DeviceErrorContext {
    return { device: this.deviceName, step, link: this.link.description };
  }

  get ackTimeoutMs(): number {
    return this.options.ackTimeoutMs ?? this.link.ackTimeoutMs;
  }

  /** Exchanges waiting for an ACK or a separate response. */
  get outstanding(): number {
    return this.byMessageId.size + [...this.byToken.values()].filter((e) => !e.awaitingAck).length;
  }

  /** A confirmable request; resolves with the response (piggybacked or separate). */
  request(request: CoapRequest): Promise<CoapResponse> {
    const { signal } = request;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (!this.link.isOpen) return Promise.reject(new DeviceDisconnectedError(this.context(request.step)));
    const token = request.token ?? this.allocateToken();
    const messageId = this.allocateMessageId();
    const bytes = encodeMessage({
      type: 'CON',
      code: request.method,
      messageId,
      token,
      options: [...uriPathOptions(request.path), ...(request.options ?? [])],
      payload: request.payload ?? new Uint8Array(0),
    });
    if (bytes.length > this.link.mtu) {
      return Promise.reject(
        new RangeError(
          `${request.step}: a ${bytes.length}-byte message does not fit ${this.link.description} (at most ${this.link.mtu})`,
        ),
      );
    }
    return new Promise<CoapResponse>((resolve, reject) => {
      const exchange: Exchange = {
        sentAt: 0,
        messageId,
        tokenKey: tokenKeyOf(token),
        bytes,
        step: request.step,
        tries: 0,
        baseTimeoutMs: this.ackTimeoutMs * (1 + this.random() * (ACK_RANDOM_FACTOR - 1)),
        awaitingAck: true,
        timer: undefined,
        acceptErrors: request.acceptErrors ?? false,
        maxRetransmit: request.maxRetransmit ?? this.options.maxRetransmit ?? MAX_RETRANSMIT,
        moreFollows: request.moreFollows ?? false,
        resolve,
        reject,
        detachSignal: () => undefined,
      };
      if (signal) {
        const onAbort = () => this.finish(exchange, () => reject(abortReason(signal)));
        signal.addEventListener('abort', onAbort, { once: true });
        exchange.detachSignal = () => signal.removeEventListener('abort', onAbort);
      }
      this.byMessageId.set(messageId, exchange);
      this.byToken.set(exchange.tokenKey, exchange);
      this.queuedBytes += bytes.length;
      this.transmit(exchange);
    });
  }

  /**
   * A non-confirmable request (RFC 7252 §4.3), sent once and not tracked: its answer, if the device
   * sends one, reaches whoever listen()s to its token. Returns the token. Q-Block1 payloads use it.
   */
  sendNonRequest(request: Omit<CoapRequest, 'signal' | 'acceptErrors' | 'maxRetransmit'>): Uint8Array {
    if (!this.link.isOpen) throw new DeviceDisconnectedError(this.context(request.step));
    const token = request.token ?? this.allocateToken();
    const bytes = encodeMessage({
      type: 'NON',
      code: request.method,
      messageId: this.allocateMessageId(),
      token,
      options: [...uriPathOptions(request.path), ...(request.options ?? [])],
      payload: request.payload ?? new Uint8Array(0),
    });
    if (bytes.length > this.link.mtu)
      throw new RangeError(
        `${request.step}: a ${bytes.length}-byte message does not fit ${this.link.description} (at most ${this.link.mtu})`,
      );
    this.stats.sent++;
    try {
      this.link.send(bytes, { moreFollows: request.moreFollows ?? false });
    } catch (error) {
      throw new DeviceDisconnectedError(this.context(request.step), error);
    }
    return token;
  }

  /** Sends a NON or an ACK/RST the engine does not track (Observe deregistration uses request()). */
  sendUntracked(message: CoapMessage): void {
    if (this.link.isOpen) this.link.send(encodeMessage(message));
  }

  allocateToken(): Uint8Array {
    const token = new Uint8Array(4);
    new DataView(token.buffer).setUint32(0, this.nextToken);
    this.nextToken = (this.nextToken + 1) >>> 0;
    return token;
  }

  /** Routes CON/NON responses carrying `token` that match no request (notifications) to `listener`. */
  listen(token: Uint8Array, listener: NotificationListener): () => void {
    const key = tokenKeyOf(token);
    this.notificationListeners.set(key, listener);
    return () => {
      if (this.notificationListeners.get(key) === listener) this.notificationListeners.delete(key);
    };
  }

  /** Stops listening to the link; outstanding requests fail as if it had closed. */
  dispose(): void {
    for (const off of this.unsubscribe) off();
    this.linkClosed(undefined);
  }

  private allocateMessageId(): number {
    // Skip ids still in use: with a long-lived session the counter wraps.
    let id = this.nextMessageId;
    while (this.byMessageId.has(id)) id = (id + 1) % MESSAGE_ID_MODULUS;
    this.nextMessageId = (id + 1) % MESSAGE_ID_MODULUS;
    return id;
  }

  private transmit(exchange: Exchange): void {
    exchange.tries++;
    if (exchange.tries > 1) this.stats.retransmissions++;
    else exchange.sentAt = performance.now();
    this.stats.sent++;
    try {
      // A retransmission goes out at once: nothing is known to follow it.
      this.link.send(exchange.bytes, { moreFollows: exchange.tries === 1 && exchange.moreFollows });
    } catch (error) {
      this.finish(exchange, () => exchange.reject(new DeviceDisconnectedError(this.context(exchange.step), error)));
      return;
    }
    // Bytes queued ahead of this message on a slow line take their time before its turn comes.
    const queueMs = Number.isFinite(this.link.bytesPerSecond)
      ? ((this.queuedBytes * WIRE_OVERHEAD_FACTOR + WIRE_OVERHEAD_BYTES * this.byMessageId.size) /
          this.link.bytesPerSecond) *
        1000
      : 0;
    // RFC 7252's fixed initial timeout, unless measured round trips (which include the queueing of
    // a window of blocks on a slow link) say answers take longer: never retransmit what is on its way.
    // Capped, so that one answer delayed by a stalled device does not make later losses slow to repair.
    const measuredMs =
      this.srtt === undefined
        ? 0
        : Math.min(this.srtt + 4 * this.rttvar, this.ackTimeoutMs * MAX_MEASURED_TIMEOUT_FACTOR);
    const timeoutMs = Math.max(exchange.baseTimeoutMs + queueMs, measuredMs) * 2 ** (exchange.tries - 1);
    exchange.timer = setTimeout(() => this.expire(exchange), timeoutMs);
  }

  private expire(exchange: Exchange): void {
    exchange.timer = undefined;
    if (exchange.awaitingAck && exchange.tries <= exchange.maxRetransmit) {
      this.transmit(exchange);
      return;
    }
    const context = this.context(exchange.step);
    const error = exchange.awaitingAck
      ? new DeviceTimeoutError(context, exchange.tries)
      : new DeviceTimeoutError(context, exchange.tries, 'answer');
    this.finish(exchange, () => exchange.reject(error));
  }

  /** Forgets the exchange (timers, maps, signal) and then settles it. */
  private finish(exchange: Exchange, settle: () => void): void {
    if (exchange.timer !== undefined) clearTimeout(exchange.timer);
    exchange.timer = undefined;
    if (this.byMessageId.get(exchange.messageId) === exchange) {
      this.byMessageId.delete(exchange.messageId);
      this.queuedBytes -= exchange.bytes.length;
    }
    if (this.byToken.get(exchange.tokenKey) === exchange) this.byToken.delete(exchange.tokenKey);
    exchange.detachSignal();
    settle();
  }

  private receive(bytes: Uint8Array): void {
    let message: CoapMessage;
    try {
      message = decodeMessage(bytes);
    } catch (error) {
      if (!(error instanceof CoapFormatError)) throw error;
      this.stats.malformed++;
      return;
    }
    this.stats.received++;
    if (message.type === 'ACK' || message.type === 'RST') this.receiveAckOrReset(message);
    else this.receiveConOrNon(message);
  }

  private receiveAckOrReset(message: CoapMessage): void {
    const exchange = this.byMessageId.get(message.messageId);
    if (!exchange || !exchange.awaitingAck) {
      this.stats.unmatched++;
      return;
    }
    // Karn's rule: only exchanges answered on their first transmission give RTT samples.
    if (exchange.tries === 1) this.sampleRtt(performance.now() - exchange.sentAt);
    if (message.type === 'RST') {
      const error = new DeviceError('COAP_RESET', 'RST', 'the device reset the exchange', this.context(exchange.step));
      this.finish(exchange, () => exchange.reject(error));
      return;
    }
    if (message.code === CODE.EMPTY) {
      // Separate response follows (RFC 7252 §5.2.2): stop retransmitting, wait for it by token.
      exchange.awaitingAck = false;
      if (exchange.timer !== undefined) clearTimeout(exchange.timer);
      this.byMessageId.delete(exchange.messageId);
      this.queuedBytes -= exchange.bytes.length;
      exchange.timer = setTimeout(
        () => this.expire(exchange),
        this.options.separateResponseTimeoutMs ?? SEPARATE_RESPONSE_TIMEOUT_MS,
      );
      return;
    }
    if (tokenKeyOf(message.token) !== exchange.tokenKey) {
      this.stats.unmatched++;
      return;
    }
    this.settleWithResponse(exchange, message);
  }

  private receiveConOrNon(message: CoapMessage): void {
    if (isRequestCode(message.code) || message.code === CODE.EMPTY) {
      // We serve nothing; an empty CON is a ping (RFC 7252 §4.3), answered with RST too.
      if (message.type === 'CON') this.sendUntracked(emptyMessage('RST', message.messageId));
      return;
    }
    const key = tokenKeyOf(message.token);
    const exchange = this.byToken.get(key);
    const listener = this.notificationListeners.get(key);
    // A CON response to a request still awaiting its ACK implies the ACK (the empty ACK was lost).
    const known = exchange !== undefined || listener !== undefined;
    if (message.type === 'CON') {
      if (known || this.recentCon.includes(message.messageId)) {
        this.sendUntracked(emptyMessage('ACK', message.messageId));
        this.rememberCon(message.messageId);
      } else {
        this.sendUntracked(emptyMessage('RST', message.messageId));
      }
    }
    if (exchange) {
      this.settleWithResponse(exchange, message);
    } else if (listener) {
      listener(message);
    } else {
      this.stats.unmatched++;
    }
  }

  /** RFC 6298 §2. */
  private sampleRtt(rtt: number): void {
    if (this.srtt === undefined) {
      this.srtt = rtt;
      this.rttvar = rtt / 2;
    } else {
      this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - rtt);
      this.srtt = 0.875 * this.srtt + 0.125 * rtt;
    }
  }

  private rememberCon(messageId: number): void {
    if (this.recentCon.includes(messageId)) return;
    this.recentCon.push(messageId);
    if (this.recentCon.length > RECENT_CON_MEMORY) this.recentCon.shift();
  }

  private settleWithResponse(exchange: Exchange, message: CoapMessage): void {
    const response: CoapResponse = { code: message.code, message };
    if (isErrorCode(message.code) && !exchange.acceptErrors) {
      const error = deviceErrorFromResponse(response, this.context(exchange.step));
      this.finish(exchange, () => exchange.reject(error));
    } else {
      this.finish(exchange, () => exchange.resolve(response));
    }
  }

  private linkClosed(cause: Error | undefined): void {
    const exchanges = new Set([...this.byMessageId.values(), ...this.byToken.values()]);
    for (const exchange of exchanges) {
      this.finish(exchange, () => exchange.reject(new DeviceDisconnectedError(this.context(exchange.step), cause)));
    }
    this.queuedBytes = 0;
  }
}
