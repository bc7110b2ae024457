import { randomBytes } from 'node:crypto';
import { decodeCbor, encodeCbor } from '../../../domain/files/cbor';
import {
  block1Option,
  CODE,
  contentFormatOption,
  decodeMessage,
  encodeMessage,
  OPTION,
  uintOption,
  uriPathOptions,
  type CoapMessage,
  type CoapOption,
} from '../../../main/devices/coap';
import type { Transport } from './transports';

export interface RawRequest {
  method: string;
  path: string;
  payload?: Uint8Array;
  options?: CoapOption[];
  messageId?: number;
  token?: Uint8Array;
}

/**
 * A deliberately small CoAP client for poking the simulator: CON requests with plain
 * retransmission, responses matched by message id, notifications collected. Tests of the real
 * engine live with the host code; here we want to see exactly what goes on the wire.
 */
export class RawCoapClient {
  readonly notifications: CoapMessage[] = [];
  /** Every message received, including duplicates. */
  readonly received: CoapMessage[] = [];
  private nextMessageId = Math.floor(Math.random() * 0xffff);
  private readonly waiting = new Map<number, (message: CoapMessage) => void>();

  constructor(
    private transport: Transport,
    private readonly options: { ackTimeoutMs: number; retries: number } = { ackTimeoutMs: 1000, retries: 4 },
  ) {
    this.attach(transport);
  }

  /** After a reboot the serial port is a new one at the same path. */
  replaceTransport(transport: Transport): void {
    this.transport = transport;
    this.attach(transport);
  }

  build(request: RawRequest): CoapMessage {
    const options = [...uriPathOptions(request.path), ...(request.options ?? [])];
    return {
      type: 'CON',
      code: request.method,
      messageId: request.messageId ?? this.allocateMessageId(),
      token: request.token ?? new Uint8Array(randomBytes(4)),
      options,
      payload: request.payload ?? new Uint8Array(0),
    };
  }

  allocateMessageId(): number {
    this.nextMessageId = (this.nextMessageId + 1) & 0xffff;
    return this.nextMessageId;
  }

  /** Sends a CON and retransmits it (same bytes) until the ACK arrives. */
  async exchange(message: CoapMessage): Promise<CoapMessage> {
    const bytes = encodeMessage(message);
    return new Promise<CoapMessage>((resolve, reject) => {
      let tries = 0;
      let timer: NodeJS.Timeout | undefined;
      const send = () => {
        if (tries > this.options.retries) {
          this.waiting.delete(message.messageId);
          reject(new Error(`no answer to ${message.code} mid ${message.messageId} after ${tries} tries`));
          return;
        }
        tries++;
        this.transport.send(bytes);
        timer = setTimeout(send, this.options.ackTimeoutMs * 2 ** (tries - 1));
      };
      this.waiting.set(message.messageId, (response) => {
        clearTimeout(timer);
        this.waiting.delete(message.messageId);
        resolve(response);
      });
      send();
    });
  }

  request(request: RawRequest): Promise<CoapMessage> {
    return this.exchange(this.build(request));
  }

  async get(path: string, options: CoapOption[] = []): Promise<CoapMessage> {
    return this.request({ method: CODE.GET, path, options });
  }

  async getCbor(path: string): Promise<Record<string, unknown>> {
    const response = await this.get(path);
    if (response.code !== CODE.CONTENT) throw new Error(`GET /${path}: ${response.code} ${describe(response)}`);
    return decodeCbor(response.payload) as Record<string, unknown>;
  }

  async postCbor(path: string, value: unknown): Promise<CoapMessage> {
    return this.request({ method: CODE.POST, path, payload: encodeCbor(value), options: [contentFormatOption(60)] });
  }

  /**
   * Block1 upload with up to `window` blocks in flight and never a block at or beyond the
   * acknowledged prefix + window (the device's receive window, docs/device-protocol.md 2.1).
   * Returns the final response (2.04 or an error), and every response seen.
   */
  async uploadBlock1(
    path: string,
    data: Uint8Array,
    options: {
      blockSize?: number;
      window?: number;
      startOffset?: number;
      size1?: boolean;
      onBlock?: (num: number) => void;
    } = {},
  ): Promise<{ final: CoapMessage; responses: CoapMessage[] }> {
    const blockSize = options.blockSize ?? 1024;
    const window = options.window ?? 4;
    const total = data.length;
    const count = Math.max(1, Math.ceil(total / blockSize));
    let next = (options.startOffset ?? 0) / blockSize;
    let prefix = next;
    const acked = new Set<number>();
    const responses: CoapMessage[] = [];
    return new Promise((resolve, reject) => {
      let final: CoapMessage | undefined;
      let inFlight = 0;
      const pump = () => {
        while (final === undefined && next < count && next < prefix + window) {
          const num = next++;
          inFlight++;
          const start = num * blockSize;
          const more = num < count - 1;
          const blockOptions: CoapOption[] = [block1Option({ num, more, size: blockSize })];
          if (num === 0 && options.size1) blockOptions.push(uintOption(OPTION.SIZE1, total));
          options.onBlock?.(num);
          this.request({
            method: CODE.PUT,
            path,
            payload: data.subarray(start, start + blockSize),
            options: blockOptions,
          }).then((response) => {
            inFlight--;
            responses.push(response);
            if (response.code !== CODE.CONTINUE) {
              final ??= response;
              resolve({ final, responses });
              return;
            }
            acked.add(num);
            while (acked.has(prefix)) acked.delete(prefix++);
            pump();
            if (final === undefined && inFlight === 0 && next >= count)
              reject(new Error(`upload of /${path} ended without a final response`));
          }, reject);
        }
      };
      pump();
    });
  }

  private attach(transport: Transport): void {
    transport.onMessage((bytes) => {
      let message: CoapMessage;
      try {
        message = decodeMessage(bytes);
      } catch {
        return;
      }
      this.received.push(message);
      if (message.type === 'ACK') {
        this.waiting.get(message.messageId)?.(message);
        return;
      }
      this.notifications.push(message);
    });
  }
}

/** "4.09 FW_NOT_ANNOUNCED: ..." for failure messages. */
export function describe(message: CoapMessage): string {
  try {
    const body = decodeCbor(message.payload) as { code?: string; message?: string };
    return `${message.code} ${body.code ?? ''} ${body.message ?? ''}`.trim();
  } catch {
    return message.code;
  }
}

export function errorCode(message: CoapMessage): string | undefined {
  try {
    return (decodeCbor(message.payload) as { code?: string }).code;
  } catch {
    return undefined;
  }
}
