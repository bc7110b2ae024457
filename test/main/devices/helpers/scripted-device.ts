import {
  decodeMessage,
  emptyMessage,
  encodeMessage,
  type CoapMessage,
  type CoapOption,
} from '../../../../main/devices/coap';
import type { MemoryLink } from '../../../../main/devices/links/memory-link';

export interface Reply {
  code: string;
  options?: CoapOption[];
  payload?: Uint8Array;
  /** Answer with an empty ACK now and this response as a separate CON later. */
  separate?: boolean;
  /** Send the same ACK twice. */
  duplicate?: boolean;
  /** Answer after this many milliseconds. */
  delayMs?: number;
}

/**
 * A device that answers each CON request with what `handler` returns (undefined: stay silent),
 * remembers answers by message id as RFC 7252 §4.5 asks, and records every request it saw.
 */
export class ScriptedDevice {
  readonly requests: CoapMessage[] = [];
  readonly acks: CoapMessage[] = [];
  private readonly answered = new Map<number, Uint8Array[]>();
  private nextMessageId = 1000;

  constructor(
    private readonly link: MemoryLink,
    private readonly handler: (request: CoapMessage, device: ScriptedDevice) => Reply | undefined,
  ) {
    link.onMessage((bytes) => this.receive(decodeMessage(bytes)));
  }

  send(message: CoapMessage): void {
    if (this.link.isOpen) this.link.send(encodeMessage(message));
  }

  allocateMessageId(): number {
    return this.nextMessageId++;
  }

  private receive(message: CoapMessage): void {
    if (message.type !== 'CON') {
      this.acks.push(message);
      return;
    }
    const cached = this.answered.get(message.messageId);
    if (cached) {
      for (const bytes of cached) if (this.link.isOpen) this.link.send(bytes);
      return;
    }
    this.requests.push(message);
    const reply = this.handler(message, this);
    if (!reply) return;
    const respond = () => {
      const response: CoapMessage = {
        type: 'ACK',
        code: reply.code,
        messageId: message.messageId,
        token: message.token,
        options: reply.options ?? [],
        payload: reply.payload ?? new Uint8Array(0),
      };
      if (reply.separate) {
        const ack = encodeMessage(emptyMessage('ACK', message.messageId));
        this.answered.set(message.messageId, [ack]);
        this.link.send(ack);
        setTimeout(() => this.send({ ...response, type: 'CON', messageId: this.allocateMessageId() }), 5);
        return;
      }
      const bytes = encodeMessage(response);
      this.answered.set(message.messageId, [bytes]);
      if (!this.link.isOpen) return;
      this.link.send(bytes);
      if (reply.duplicate) this.link.send(bytes);
    };
    if (reply.delayMs) setTimeout(respond, reply.delayMs);
    else respond();
  }
}
