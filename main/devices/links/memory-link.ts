import { MAX_FRAME_MESSAGE_SIZE } from '../../../protocol/constants';
import { LinkClosedError, LinkWithListeners, type Link } from './link';

export interface MemoryLinkOptions {
  ackTimeoutMs?: number;
  /** Called for every message in either direction; false drops it (loss injection in tests). */
  filter?: (direction: 'toDevice' | 'toHost', message: Uint8Array) => boolean;
}

/**
 * One end of an in-process link. Messages cross asynchronously (a macrotask later) so that
 * ordering and re-entrancy look like a real link's.
 */
export class MemoryLink extends LinkWithListeners implements Link {
  readonly kind = 'memory' as const;
  readonly mtu = MAX_FRAME_MESSAGE_SIZE;
  readonly bytesPerSecond = Number.POSITIVE_INFINITY;
  readonly ackTimeoutMs: number;
  private open_ = true;
  peer: MemoryLink | undefined;

  constructor(
    readonly description: string,
    private readonly direction: 'toDevice' | 'toHost',
    private readonly options: MemoryLinkOptions,
  ) {
    super();
    this.ackTimeoutMs = options.ackTimeoutMs ?? 50;
  }

  get isOpen(): boolean {
    return this.open_;
  }

  async open(): Promise<void> {
    this.open_ = true;
    if (this.peer) this.peer.open_ = true;
  }

  send(message: Uint8Array): void {
    if (!this.open_) throw new LinkClosedError(this.description);
    if (this.options.filter && !this.options.filter(this.direction, message)) return;
    const copy = message.slice();
    const peer = this.peer;
    setImmediate(() => {
      if (peer?.open_) peer.listeners.emitMessage(copy);
    });
  }

  /** Closes both ends, as a pulled cable does. */
  async close(): Promise<void> {
    this.drop();
  }

  /** Both ends see a close, with `error` as the reason. */
  drop(error?: Error): void {
    for (const end of [this, this.peer]) {
      if (end?.open_) {
        end.open_ = false;
        end.listeners.emitClose(error);
      }
    }
  }
}

/** A connected pair: `host` for the engine, `device` for a scripted responder. */
export function createMemoryLinkPair(options: MemoryLinkOptions = {}): { host: MemoryLink; device: MemoryLink } {
  const host = new MemoryLink('memory:host', 'toDevice', options);
  const device = new MemoryLink('memory:device', 'toHost', options);
  host.peer = device;
  device.peer = host;
  return { host, device };
}
