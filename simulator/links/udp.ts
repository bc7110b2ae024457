import { createSocket, type Socket } from 'node:dgram';
import type { DeviceFaults } from '../faults';
import { udpWireModel } from '../wire/models';
import type { DeviceLink, LinkAddress, MessageReceiver } from './link';
import { PacedLink } from './paced-link';

export interface UdpLinkOptions {
  host: string;
  /** 0: any free port (the descriptor says which). */
  port: number;
  bytesPerSecond: number;
  latencyMs: number;
  faults: DeviceFaults;
  /**
   * The All-CoAP-Nodes port whose group the device joins on loopback, to answer discovery
   * (RFC 7252 §8). Default $PROVISIONER_DISCOVERY_PORT; not joined when neither says a port, so
   * that simulators of unrelated tests do not answer each other's discovery.
   */
  discoveryPort?: number | false;
}

/** RFC 7252 §12.8: All-CoAP-Nodes (IPv4). */
const ALL_COAP_NODES = '224.0.1.187';
/** The only interface the simulator joins a group on: multicast never leaves the computer. */
const LOOPBACK = '127.0.0.1';

interface Datagram {
  length: number;
  bytes: Uint8Array;
  peer: string;
}

/**
 * CoAP over UDP (EPC on Ethernet or Wifi). The socket stays bound across reboots so the device
 * keeps its address; while down it is silent, as a rebooting device is.
 */
export class UdpLink extends PacedLink<Datagram> implements DeviceLink {
  readonly kind = 'udp' as const;
  private socket: Socket | undefined;
  private groupSocket: Socket | undefined;
  private boundPort: number;

  constructor(private readonly options: UdpLinkOptions) {
    super(udpWireModel({ bytesPerSecond: options.bytesPerSecond, latencyMs: options.latencyMs }));
    this.boundPort = options.port;
  }

  protected arrive(d: Datagram): void {
    if (this.up_) this.receiver(d.bytes, d.peer);
  }

  protected leave(d: Datagram): void {
    const [host, port] = splitPeer(d.peer);
    this.socket?.send(d.bytes, port, host);
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
    // The wire model (PacedChannel) is where datagrams take their time; the socket in front of it
    // must hold a whole Q-Block1 payload set that a host sends at memory speed, or loopback itself
    // would lose blocks that no modeled wire lost. Linux caps this at net.core.rmem_max.
    trySetRecvBufferSize(socket, RECEIVE_BUFFER_BYTES);
    socket.on('message', (bytes, remote) => {
      if (!this.up_) return;
      // The UDP checksum drops a corrupted datagram, so corruption is a loss here.
      if (this.options.faults.frameFate('in') !== 'pass') return;
      this.inbound.send({
        length: bytes.length,
        bytes: new Uint8Array(bytes),
        peer: joinPeer(remote.address, remote.port),
      });
    });
    this.boundPort = socket.address().port;
    this.socket = socket;
    const discoveryPort = this.options.discoveryPort ?? discoveryPortFromEnv(process.env);
    if (discoveryPort !== false && !this.options.host.includes(':'))
      this.groupSocket = await this.joinGroup(discoveryPort);
  }

  /**
   * A second socket on the group's port (shared with the other simulated devices) receives the
   * multicast requests; answers go out of the device's own socket, from its own address, which is
   * how the host learns where the device is.
   */
  private async joinGroup(port: number): Promise<Socket> {
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, ALL_COAP_NODES, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.addMembership(ALL_COAP_NODES, LOOPBACK);
    socket.on('error', () => undefined);
    socket.on('message', (bytes, remote) => {
      if (!this.up_ || this.options.faults.frameFate('in') !== 'pass') return;
      this.inbound.send({
        length: bytes.length,
        bytes: new Uint8Array(bytes),
        peer: joinPeer(remote.address, remote.port),
      });
    });
    return socket;
  }

  async up(): Promise<void> {
    this.up_ = true;
  }

  async down(): Promise<void> {
    this.up_ = false;
    this.clearWire();
  }

  send(message: Uint8Array, peer: string): void {
    if (!this.up_) return;
    if (this.options.faults.frameFate('out') !== 'pass') return;
    this.outbound.send({ length: message.length, bytes: message, peer });
  }

  async close(): Promise<void> {
    await this.down();
    for (const socket of [this.socket, this.groupSocket]) {
      if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
    this.socket = undefined;
    this.groupSocket = undefined;
  }
}

/** Room for four payload sets of 64 blocks with the kernel's per-datagram overhead. */
const RECEIVE_BUFFER_BYTES = 2 * 1024 * 1024;

function trySetRecvBufferSize(socket: Socket, bytes: number): void {
  try {
    socket.setRecvBufferSize(bytes);
  } catch {
    // Not permitted or not supported: the system's default stays, and losses show as repairs.
  }
}

function joinPeer(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

function splitPeer(peer: string): [string, number] {
  const at = peer.lastIndexOf(':');
  return [peer.slice(0, at).replace(/^\[|\]$/g, ''), Number(peer.slice(at + 1))];
}

function discoveryPortFromEnv(env: NodeJS.ProcessEnv): number | false {
  const port = Number(env.PROVISIONER_DISCOVERY_PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : false;
}
