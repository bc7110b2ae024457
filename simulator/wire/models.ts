import { BLE_ATT_HEADER_SIZE } from '../../protocol/constants';

/**
 * How long a chunk takes on a link, so that timings mean something although a pty and a loopback
 * socket move bytes at memory speed. `bytesPerSecond` is the model's payload rate at saturation:
 * what benchmarks divide measured throughput by.
 */
export interface WireModel {
  readonly name: string;
  readonly bytesPerSecond: number;
  /** One-way latency added after the transmission time. */
  readonly latencyMs: number;
  /** Seconds the wire is busy with one chunk (one pty write, one BLE packet, one datagram). */
  transmitSeconds(bytes: number): number;
}

/** 8N1: a start bit, eight data bits and a stop bit per byte, so baud / 10 bytes per second. */
export function serialWireModel(baudRate: number): WireModel {
  const bytesPerSecond = baudRate / 10;
  return {
    name: `serial ${baudRate} baud`,
    bytesPerSecond,
    latencyMs: 0,
    transmitSeconds: (bytes) => bytes / bytesPerSecond,
  };
}

export interface BleWireParameters {
  /** Negotiated ATT MTU: one packet carries at most MTU - 3 bytes. */
  mtu: number;
  connectionIntervalMs: number;
  /** Link-layer packets the two controllers exchange per connection event, per direction. */
  packetsPerInterval: number;
}

/**
 * Every write without response and every notification is one packet of at most MTU - 3 bytes;
 * a connection event carries `packetsPerInterval` of them. A packet costs its slot whether full or
 * not, which is why small MTUs are slow.
 */
export function bleWireModel(parameters: BleWireParameters): WireModel {
  const slotSeconds = parameters.connectionIntervalMs / 1000 / parameters.packetsPerInterval;
  const payloadPerPacket = parameters.mtu - BLE_ATT_HEADER_SIZE;
  return {
    name: `BLE MTU ${parameters.mtu}, ${parameters.connectionIntervalMs} ms interval, ${parameters.packetsPerInterval} packets per interval`,
    bytesPerSecond: payloadPerPacket / slotSeconds,
    latencyMs: 0,
    transmitSeconds: (bytes) => Math.max(1, Math.ceil(bytes / payloadPerPacket)) * slotSeconds,
  };
}

export interface UdpWireParameters {
  bytesPerSecond: number;
  latencyMs: number;
}

export function udpWireModel(parameters: UdpWireParameters): WireModel {
  return {
    name: `UDP ${parameters.bytesPerSecond} B/s, ${parameters.latencyMs} ms latency`,
    bytesPerSecond: parameters.bytesPerSecond,
    latencyMs: parameters.latencyMs,
    transmitSeconds: (bytes) => bytes / parameters.bytesPerSecond,
  };
}
