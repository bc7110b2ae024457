/**
 * A link carries whole CoAP messages between the host and one device. Serial and BLE frame them
 * (SLIP + CRC-32); UDP sends one per datagram; the memory pair hands them over in-process. The
 * CoAP engine sees nothing else of the link.
 */
import type { LinkKind } from '../../../domain/link-kind';

export type { LinkKind };

export interface Link {
  /** 'memory': the in-process pair of the tests, never a device a person attached. */
  readonly kind: LinkKind | 'memory';
  /** How a person and a log name the link: 'serial:/dev/ttyACM0', 'udp:192.168.3.10:5683', 'ble:…'. */
  readonly description: string;
  /** Largest CoAP message the link carries. */
  readonly mtu: number;
  /**
   * Bytes per second the link moves at best (serial: baud / 10), so the engine can allow for
   * queued bytes in its ACK timeouts. Infinity where unknown and fast.
   */
  readonly bytesPerSecond: number;
  /** RFC 7252 ACK_TIMEOUT for this link, milliseconds. */
  readonly ackTimeoutMs: number;
  readonly isOpen: boolean;
  /**
   * Opens (or reopens after a close, e.g. a device that rebooted). Rejects if the device is not
   * there; a BLE open scans until the peripheral advertises, so give it a signal to give up.
   */
  open(signal?: AbortSignal): Promise<void>;
  /**
   * Queues one CoAP message. Throws LinkClosedError when the link is not open. `hint.moreFollows`
   * says another message follows shortly (the next block of a windowed upload): a packetized link
   * (BLE) may then hold back a partly filled packet to fill it with the next message.
   */
  send(message: Uint8Array, hint?: SendHint): void;
  /** Every CoAP message that arrives intact. Returns the unsubscribe function. */
  onMessage(listener: (message: Uint8Array) => void): () => void;
  /** The link went away (cable pulled, device rebooted, BLE disconnect) or was closed. */
  onClose(listener: (error?: Error) => void): () => void;
  close(): Promise<void>;
}

export interface SendHint {
  moreFollows?: boolean;
}

/** A send on a link that is not open. */
export class LinkClosedError extends Error {
  override readonly name = 'LinkClosedError';
  constructor(
    readonly link: string,
    cause?: unknown,
  ) {
    super(`The link ${link} is closed`, { cause });
  }
}

/** The listener lists every link keeps; delivery is synchronous and a throwing listener does not stop the others. */
class LinkListeners {
  private readonly messageListeners = new Set<(message: Uint8Array) => void>();
  private readonly closeListeners = new Set<(error?: Error) => void>();

  onMessage(listener: (message: Uint8Array) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  emitMessage(message: Uint8Array): void {
    deliver(this.messageListeners, message);
  }

  emitClose(error?: Error): void {
    deliver(this.closeListeners, error);
  }
}

/** Calls each listener of a copy of the list (one may unsubscribe itself); a throw is reported later, not to the link. */
function deliver<T>(listeners: ReadonlySet<(value: T) => void>, value: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(value);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** The subscriptions every link serves alike, from its own listener lists; the link emits into `listeners`. */
export abstract class LinkWithListeners {
  protected readonly listeners = new LinkListeners();

  onMessage(listener: (message: Uint8Array) => void): () => void {
    return this.listeners.onMessage(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    return this.listeners.onClose(listener);
  }
}
