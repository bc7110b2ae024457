import { encodeFrameWith, FrameDecoder, type FrameChecksum } from '../../../protocol/framing';
import { ACK_TIMEOUT_MS, MAX_FRAME_MESSAGE_SIZE, SERIAL_DEFAULT_BAUD_RATE } from '../../../protocol/constants';
import { LinkClosedError, LinkWithListeners, type Link } from './link';
import { takePort, type PortInUse } from './port-turns';
import { openSystemSerialPort, type SerialPortLike, type SerialPortOpener } from './serial-port';

export interface SerialLinkOptions {
  path: string;
  baudRate?: number;
  openPort?: SerialPortOpener;
  /** 'none' for a device that speaks the vendor's protocol: plain SLIP frames (docs/vendor-devices.md). Default 'crc32'. */
  checksum?: FrameChecksum;
  /** When another link of this process holds the port: wait for it (a job) or fail at once (a probe). Default 'wait'. */
  whenPortInUse?: PortInUse;
}

/**
 * USB serial (CDC ACM) with SLIP + CRC-32 frames (plain SLIP for the vendor's devices). A device that reboots re-enumerates: the port
 * closes under us and comes back on the same path, so open() may be called again after a close.
 */
export class SerialLink extends LinkWithListeners implements Link {
  readonly kind = 'serial' as const;
  readonly mtu = MAX_FRAME_MESSAGE_SIZE;
  readonly ackTimeoutMs = ACK_TIMEOUT_MS.serial;
  readonly baudRate: number;
  readonly path: string;
  private readonly openPort: SerialPortOpener;
  private port: SerialPortLike | undefined;
  private givePortBack: (() => void) | undefined;
  private readonly whenPortInUse: PortInUse;
  readonly checksum: FrameChecksum;
  readonly decoder: FrameDecoder;

  constructor(options: SerialLinkOptions) {
    super();
    this.checksum = options.checksum ?? 'crc32';
    this.decoder = new FrameDecoder({ checksum: this.checksum });
    this.path = options.path;
    this.baudRate = options.baudRate ?? SERIAL_DEFAULT_BAUD_RATE;
    this.openPort = options.openPort ?? openSystemSerialPort;
    this.whenPortInUse = options.whenPortInUse ?? 'wait';
  }

  get description(): string {
    return `serial:${this.path}`;
  }

  /** 8N1: ten bits on the line per byte. */
  get bytesPerSecond(): number {
    return this.baudRate / 10;
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.isOpen) return;
    const givePortBack = await takePort(this.path, this.whenPortInUse, signal);
    let port: SerialPortLike;
    try {
      port = await this.openPort({ path: this.path, baudRate: this.baudRate });
    } catch (error) {
      givePortBack();
      throw error;
    }
    this.givePortBack = givePortBack;
    this.decoder.reset();
    this.port = port;
    port.on('data', (chunk) => {
      for (const message of this.decoder.push(chunk)) this.listeners.emitMessage(message);
    });
    // serialport emits 'error' and then 'close' when the device goes away; 'close' is what counts.
    port.on('error', () => undefined);
    port.on('close', (error) => this.closed(port, error ?? undefined));
  }

  send(message: Uint8Array): void {
    const port = this.port;
    if (!port?.isOpen) throw new LinkClosedError(this.description);
    port.write(encodeFrameWith(message, this.checksum));
  }

  async close(): Promise<void> {
    const port = this.port;
    if (!port) return;
    if (port.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.closed(port, undefined);
  }

  private closed(port: SerialPortLike, error: Error | undefined): void {
    if (this.port !== port) return;
    this.port = undefined;
    this.givePortBack?.();
    this.givePortBack = undefined;
    port.removeAllListeners();
    // A late 'error' after removeAllListeners must not crash the process.
    port.on('error', () => undefined);
    this.listeners.emitClose(error);
  }
}
