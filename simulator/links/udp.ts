import { createSocket, type Socket } from 'node:dgram';
import type { DeviceFaults } from '../faults';
import { PacedChannel } from '../wire/paced-channel';
import { udpWireModel, type WireModel } from '../wire/models';
import { waitForDrain } from './drain';
import type { DeviceLink, LinkAddress, MessageReceiver } from './link';

export interface UdpLinkOptions {
  host: string;
  /** 0: any free port (the descriptor says which). */
  port: number;
  bytesPerSecond: number;
  latencyMs: number;
  faults: DeviceFaults;
}

interface Datagram {
  length: number;
  bytes: Uint8Array;
  peer: string;
}

/**
 * CoAP over UDP (EPC on Ethernet or Wifi). The socket stays bound across reboots so the device
 * keeps its address; while down it is silent, as a rebooting device is.
 */
export class UdpLink implements DeviceLink {
  readonly kind = 'udp' as const;
  readonly wire: { inbound: WireModel; outbound: WireModel };
  private socket: Socket | undefined;
  private receiver: MessageReceiver = () => undefined;
  private readonly inbound: PacedChannel<Datagram>;
  private readonly outbound: PacedChannel<Datagram>;
  private up_ = false;
  private boundPort: number;

  constructor(private readonly options: UdpLinkOptions) {
    const model = udpWireModel({ bytesPerSecond: options.bytesPerSecond, latencyMs: options.latencyMs });
    this.wire = { inbound: model, outbound: model };
    this.boundPort = options.port;
    this.inbound = new PacedChannel<Datagram>(model, (d) => {
      if (this.up_) this.receiver(d.bytes, d.peer);
    });
    this.outbound = new PacedChannel<Datagram>(model, (d) => {
      const [host, port] = splitPeer(d.peer);
      this.socket?.send(d.bytes, port, host);
    });
  }

  get isUp(): boolean {
    return this.up_;
  }

  address(): LinkAddress {
    return { link: 'udp', host: this.options.host, port: this.boundPort };
  }

  async open(receiver: MessageReceiver): Promise<void> {
    this.receiver = receiver;
    const socket = createSocket(this.options.host.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.options.port, this.options.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.on('error', () => undefined);
    socket.on('message', (bytes, remote) => {
      if (!this.up_) return;
      // The UDP checksum drops a corrupted datagram, so corruption is a loss here.
      if (this.options.faults.frameFate('in') !== 'pass') return;
      this.inbound.send({ length: bytes.length, bytes: new Uint8Array(bytes), peer: joinPeer(remote.address, remote.port) });
    });
    this.boundPort = socket.address().port;
    this.socket = socket;
  }

  async up(): Promise<void> {
    this.up_ = true;
  }

  async down(): Promise<void> {
    this.up_ = false;
    this.inbound.clear();
    this.outbound.clear();
  }

  send(message: Uint8Array, peer: string): void {
    if (!this.up_) return;
    if (this.options.faults.frameFate('out') !== 'pass') return;
    this.outbound.send({ length: message.length, bytes: message, peer });
  }

  drained(): Promise<void> {
    return waitForDrain(this.outbound);
  }

  hold(ms: number): void {
    this.inbound.hold(ms);
    this.outbound.hold(ms);
  }

  async close(): Promise<void> {
    await this.down();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
}

function joinPeer(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

function splitPeer(peer: string): [string, number] {
  const at = peer.lastIndexOf(':');
  return [peer.slice(0, at).replace(/^\[|\]$/g, ''), Number(peer.slice(at + 1))];
}
