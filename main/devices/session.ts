import { CoapEngine, type CoapEngineOptions } from './coap/engine';
import type { DeviceErrorContext } from './errors';
import type { Link } from './links/link';
import type { DeviceInfo } from './operations/payloads';

export interface DeviceSessionOptions extends CoapEngineOptions {
  /** How long to wait for a device to come back after a disconnect or a reboot. Default 60 s. */
  reconnectTimeoutMs?: number;
  /** Pause between attempts to reopen a link or reach a rebooting device. Default 200 ms. */
  pollIntervalMs?: number;
  /** Refuse to talk on when another device answers on this link. */
  expectedSerialNumber?: string;
}

/**
 * One device on one link: the CoAP engine, what the device last said about itself, and how long
 * to wait for it to come back. The operations (operations/*.ts) take a session.
 */
export class DeviceSession {
  readonly engine: CoapEngine;
  /** The last GET /info answer. */
  info: DeviceInfo | undefined;
  expectedSerialNumber: string | undefined;
  readonly reconnectTimeoutMs: number;
  readonly pollIntervalMs: number;

  constructor(
    readonly link: Link,
    options: DeviceSessionOptions = {},
  ) {
    this.engine = new CoapEngine(link, options);
    this.expectedSerialNumber = options.expectedSerialNumber;
    if (options.expectedSerialNumber && options.deviceName === undefined)
      this.engine.deviceName = options.expectedSerialNumber;
    this.reconnectTimeoutMs = options.reconnectTimeoutMs ?? 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
  }

  /** Opens the link and returns a session on it. */
  static async open(link: Link, options: DeviceSessionOptions = {}): Promise<DeviceSession> {
    await link.open();
    return new DeviceSession(link, options);
  }

  /** The serial number once known, else where the device is. */
  get name(): string {
    return this.engine.deviceName;
  }

  context(step: string): DeviceErrorContext {
    return this.engine.context(step);
  }

  async close(): Promise<void> {
    this.engine.dispose();
    await this.link.close();
  }
}
