import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { ACK_TIMEOUT_MS, COAP_DEFAULT_PORT } from '../../../protocol/constants';
import { LinkClosedError, LinkWithListeners, type Link } from './link';

export interface UdpLinkOptions {
  host: string;
  port?: number;
}

/** RFC 7252 §4.6: stay within an IPv6 minimum-MTU datagram (1280 − 40 − 8). */
const UDP_MAX_MESSAGE_SIZE = 1232;

/**
 * CoAP over UDP (EPC on Ethernet or Wifi): one datagram is one message. The socket is connected
 * to the device, so the kernel drops datagrams from anyone else. UDP has no connection to lose: a
 * rebooting device simply stops answering for a while, so the link never closes by itself.
 */
export class UdpLink extends LinkWithListeners implements Link {
  readonly kind = 'udp' as const;
  readonly mtu = UDP_MAX_MESSAGE_SIZE;
  readonly ackTimeoutMs = ACK_TIMEOUT_MS.udp;
  readonly bytesPerSecond = Number.POSITIVE_INFINITY;
  readonly host: string;
  readonly port: number;
  private socket: Socket | undefined;
  private connected = false;

  constructor(options: UdpLinkOptions) {
    super();
    this.host = options.host;
    this.port = options.port ?? COAP_DEFAULT_PORT;
  }

  get description(): string {
    return `udp:${isIPv6(this.host) ? `[${this.host}]` : this.host}:${this.port}`;
  }

  get isOpen(): boolean {
    return this.connected;
  }

  async open(): Promise<void> {
    if (this.connected) return;
    const socket = createSocket(isIPv6(this.host) ? 'udp6' : 'udp4');
    // ICMP port unreachable surfaces as ECONNREFUSED on a connected socket while a device reboots: not fatal.
    socket.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(this.port, this.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('message', (datagram) => this.listeners.emitMessage(datagram));
    this.socket = socket;
    this.connected = true;
  }

  send(message: Uint8Array): void {
    if (!this.connected || !this.socket) throw new LinkClosedError(this.description);
    this.socket.send(message);
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (!socket) return;
    this.socket = undefined;
    this.connected = false;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    this.listeners.emitClose();
  }
}
