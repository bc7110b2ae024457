import { randomBytes, randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import {
  CODE,
  decodeMessage,
  encodeMessage,
  MESSAGE_ID_MODULUS,
  uriPathOptions,
  type CoapMessage,
} from '../../../protocol/coap';
import { COAP_DEFAULT_PORT, RESOURCE } from '../../../protocol/constants';
import { formatLinkSpec } from '../links/link-spec';

/** RFC 7252 §12.8: All-CoAP-Nodes. */
export const ALL_COAP_NODES_IPV4 = '224.0.1.187';
/** RFC 7252 §12.8: All-CoAP-Nodes, link-local scope. */
export const ALL_COAP_NODES_IPV6 = 'ff02::fd';

/**
 * Where the multicast request goes out. The interface is the address of the one interface the
 * request is sent on; loopback by default, so that nothing leaves the computer unless a
 * technician names the interface of the devices' network.
 */
export interface MulticastDiscoveryOptions {
  /** The group's port. Default $PROVISIONER_DISCOVERY_PORT, else 5683. */
  port?: number;
  /** The address of the interface to send on. Default $PROVISIONER_DISCOVERY_INTERFACE, else 127.0.0.1. */
  interfaceAddress?: string;
  /** How long answers are collected. Default 1000 ms. */
  listenMs?: number;
}

export type ResolvedMulticastDiscovery = Required<MulticastDiscoveryOptions>;

/** $PROVISIONER_DISCOVERY=off turns discovery off; $PROVISIONER_DISCOVERY_PORT and _INTERFACE say where it goes. */
export function multicastDiscoveryFromEnv(env: NodeJS.ProcessEnv): MulticastDiscoveryOptions | false {
  if (env.PROVISIONER_DISCOVERY === 'off') return false;
  const port = env.PROVISIONER_DISCOVERY_PORT ? Number(env.PROVISIONER_DISCOVERY_PORT) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
    throw new RangeError(`PROVISIONER_DISCOVERY_PORT must be a port number, not ${env.PROVISIONER_DISCOVERY_PORT}`);
  }
  return {
    ...(port !== undefined ? { port } : {}),
    ...(env.PROVISIONER_DISCOVERY_INTERFACE ? { interfaceAddress: env.PROVISIONER_DISCOVERY_INTERFACE } : {}),
  };
}

export function resolveMulticastDiscovery(options: MulticastDiscoveryOptions): ResolvedMulticastDiscovery {
  return { port: COAP_DEFAULT_PORT, interfaceAddress: '127.0.0.1', listenMs: 1000, ...options };
}

/**
 * One look for IP devices (RFC 7252 §8): a NON GET /.well-known/core to All-CoAP-Nodes on one
 * interface with a hop limit of 1, and every node's 2.05 collected for `listenMs` (a multicast
 * request is never retransmitted, and each node answers from its own address). Returns the links
 * of the nodes that answered, each once; they are not yet known to be our devices: the caller
 * confirms each with GET /info.
 */
export async function discoverByMulticast(
  options: MulticastDiscoveryOptions = {},
  signal?: AbortSignal,
): Promise<string[]> {
  const { port, interfaceAddress, listenMs } = resolveMulticastDiscovery(options);
  const ipv6 = isIPv6(interfaceAddress.replace(/%.*$/, ''));
  const socket = createSocket(ipv6 ? 'udp6' : 'udp4');
  const found = new Set<string>();
  const token = new Uint8Array(randomBytes(4));
  socket.on('message', (bytes, remote) => {
    if (isAnswer(bytes, token))
      found.add(formatLinkSpec({ kind: 'udp', host: remote.address.replace(/%.*$/, ''), port: remote.port }));
  });
  try {
    await bind(socket, ipv6 ? '::' : interfaceAddress);
    socket.setMulticastInterface(interfaceAddress);
    socket.setMulticastTTL(1);
    const request: CoapMessage = {
      type: 'NON',
      code: CODE.GET,
      messageId: randomInt(MESSAGE_ID_MODULUS),
      token,
      options: uriPathOptions(RESOURCE.wellKnownCore),
      payload: new Uint8Array(0),
    };
    await new Promise<void>((resolve, reject) =>
      socket.send(encodeMessage(request), port, ipv6 ? ALL_COAP_NODES_IPV6 : ALL_COAP_NODES_IPV4, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await listen(listenMs, signal);
  } finally {
    await new Promise<void>((resolve) => socket.close(() => resolve()));
  }
  return [...found].sort();
}

/** A 2.05 carrying our token; anything else (an error a node should not have sent, a stray datagram) is not an answer. */
function isAnswer(bytes: Uint8Array, token: Uint8Array): boolean {
  try {
    const message = decodeMessage(new Uint8Array(bytes));
    return (
      message.code === CODE.CONTENT &&
      message.token.length === token.length &&
      message.token.every((b, i) => b === token[i])
    );
  } catch {
    return false;
  }
}

function bind(socket: Socket, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, address, () => {
      socket.off('error', reject);
      resolve();
    });
  });
}

function listen(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
