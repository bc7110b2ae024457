import { SerialPort } from 'serialport';
import type { FrameChecksum } from '../../protocol/framing';
import type { DeviceFaults } from '../faults';
import { serialWireModel } from '../wire/models';
import { FrameStream, splitAfterFrameEnds } from './frame-stream';
import type { DeviceLink, LinkAddress, MessageReceiver } from './link';
import { PacedLink } from './paced-link';
import { startPtyPair, type PtyPair } from './socat';

export interface PtyLinkOptions {
  hostPath: string;
  devicePath: string;
  baudRate: number;
  faults: DeviceFaults;
  /** Default 'crc32' (our framing); 'none' for a vendor device (plain SLIP). */
  checksum?: FrameChecksum;
}

/**
 * USB serial over a socat pty pair. The pty moves bytes at memory speed, so both directions go
 * through a paced channel at baud / 10 bytes per second: the host's bytes reach the device, and
 * the device's bytes reach the host, when they would on a real line.
 */
export class PtyLink extends PacedLink<Uint8Array> implements DeviceLink {
  readonly kind = 'serial' as const;
  private readonly frames: FrameStream;
  private pair: PtyPair | undefined;
  private port: SerialPort | undefined;

  constructor(private readonly options: PtyLinkOptions) {
    super(serialWireModel(options.baudRate));
    this.frames = new FrameStream(options.faults, options.checksum);
  }

  protected arrive(chunk: Uint8Array): void {
    for (const message of this.frames.receive(chunk)) this.receiver(message, 'link');
  }

  protected leave(frame: Uint8Array): void {
    this.port?.write(frame);
  }

  address(): LinkAddress {
    return { link: 'serial', path: this.options.hostPath };
  }

  async open(receiver: MessageReceiver): Promise<void> {
    this.receiver = receiver;
  }

  async up(): Promise<void> {
    if (this.up_) return;
    this.pair = await startPtyPair(this.options.hostPath, this.options.devicePath);
    const port = new SerialPort({ path: this.options.devicePath, baudRate: this.options.baudRate, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(error) : resolve())));
    // Errors after an unplug (EIO, EBADF on the vanished pty) are the unplug itself.
    port.on('error', () => undefined);
    port.on('data', (chunk: Buffer) => {
      // new Uint8Array copies: the pieces wait in the pacer after serialport reused its buffer.
      for (const piece of splitAfterFrameEnds(new Uint8Array(chunk))) this.inbound.send(piece);
    });
    this.port = port;
    this.frames.reset();
    this.up_ = true;
  }

  async down(): Promise<void> {
    if (!this.up_) return;
    this.up_ = false;
    this.clearWire();
    const port = this.port;
    this.port = undefined;
    port?.removeAllListeners('data');
    // Killing socat is what the host sees: its end of the pty closes.
    await this.pair?.stop();
    this.pair = undefined;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.frames.reset();
  }

  send(message: Uint8Array): void {
    if (!this.up_) return;
    const frame = this.frames.send(message);
    if (frame !== undefined) this.outbound.send(frame);
  }

  async close(): Promise<void> {
    await this.down();
  }
}
