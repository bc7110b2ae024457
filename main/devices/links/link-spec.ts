import { isIPv6 } from 'node:net';
import { COAP_DEFAULT_PORT } from '../../../protocol/constants';
import { BleLink } from './ble-link';
import type { BleCentral } from './ble-central';
import type { Link } from './link';
import { SerialLink } from './serial-link';
import type { PortInUse } from './port-turns';
import type { SerialPortOpener } from './serial-port';
import { UdpLink } from './udp-link';

/** Where a device is, as a technician or a script writes it. */
export type LinkSpec =
  | { kind: 'serial'; path: string; baudRate?: number }
  | { kind: 'udp'; host: string; port: number }
  | { kind: 'ble'; id: string };

export class LinkSpecError extends Error {
  override readonly name = 'LinkSpecError';
}

const USAGE =
  'Use serial:/dev/ttyACM0 (or serial:/dev/ttyACM0@921600), udp:192.168.3.10[:5683], udp:[fe80::1]:5683 or ble:AABBCCDDEEFF.';

function parsePort(text: string, spec: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535)
    throw new LinkSpecError(`"${spec}": ${text} is not a UDP port (1 to 65535). ${USAGE}`);
  return port;
}

/** 'serial:/dev/ttyACM0[@BAUD]' | 'udp:HOST[:PORT]' | 'udp:[IPV6][:PORT]' | 'ble:ID'. */
export function parseLinkSpec(spec: string): LinkSpec {
  const colon = spec.indexOf(':');
  const scheme = colon < 0 ? '' : spec.slice(0, colon).toLowerCase();
  const rest = colon < 0 ? '' : spec.slice(colon + 1);
  if (rest === '') throw new LinkSpecError(`"${spec}" names no device. ${USAGE}`);
  switch (scheme) {
    case 'serial': {
      const match = /^(.+?)(?:@(\d+))?$/.exec(rest)!;
      const baudRate = match[2] === undefined ? undefined : Number(match[2]);
      if (baudRate !== undefined && baudRate <= 0)
        throw new LinkSpecError(`"${spec}": the baud rate must be positive. ${USAGE}`);
      return baudRate === undefined
        ? { kind: 'serial', path: match[1]! }
        : { kind: 'serial', path: match[1]!, baudRate };
    }
    case 'udp': {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
      if (bracketed)
        return {
          kind: 'udp',
          host: bracketed[1]!,
          port: bracketed[2] === undefined ? COAP_DEFAULT_PORT : parsePort(bracketed[2], spec),
        };
      if (isIPv6(rest)) return { kind: 'udp', host: rest, port: COAP_DEFAULT_PORT };
      const hostPort = /^([^:]+)(?::(\d*))?$/.exec(rest);
      if (!hostPort) throw new LinkSpecError(`"${spec}" is not an address. ${USAGE}`);
      return {
        kind: 'udp',
        host: hostPort[1]!,
        port: hostPort[2] === undefined ? COAP_DEFAULT_PORT : parsePort(hostPort[2], spec),
      };
    }
    case 'ble':
      if (!/^[0-9A-Za-z:-]+$/.test(rest)) throw new LinkSpecError(`"${spec}" is not a BLE address or id. ${USAGE}`);
      return { kind: 'ble', id: rest };
    default:
      throw new LinkSpecError(`"${spec}" does not say how the device is attached. ${USAGE}`);
  }
}

export function formatLinkSpec(spec: LinkSpec): string {
  switch (spec.kind) {
    case 'serial':
      return `serial:${spec.path}${spec.baudRate === undefined ? '' : `@${spec.baudRate}`}`;
    case 'udp':
      return `udp:${isIPv6(spec.host) ? `[${spec.host}]` : spec.host}:${spec.port}`;
    case 'ble':
      return `ble:${spec.id}`;
  }
}

/** The side effects a link needs, injectable: tests open mock ports and simulated BLE. */
export interface LinkFactoryDeps {
  openPort?: SerialPortOpener;
  /** A serial port another link of this process holds: wait for it (jobs, the default) or fail at once (the device list's probes). */
  whenPortInUse?: PortInUse;
  bleCentral?: () => Promise<BleCentral>;
}

export function createLink(spec: LinkSpec, deps: LinkFactoryDeps = {}): Link {
  switch (spec.kind) {
    case 'serial':
      return new SerialLink({
        path: spec.path,
        baudRate: spec.baudRate,
        openPort: deps.openPort,
        whenPortInUse: deps.whenPortInUse,
      });
    case 'udp':
      return new UdpLink({ host: spec.host, port: spec.port });
    case 'ble': {
      const central = deps.bleCentral ?? (async () => (await import('./ble-central')).systemBleCentral());
      return new BleLink({ id: spec.id, central });
    }
  }
}
