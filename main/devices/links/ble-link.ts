import type { Characteristic, Peripheral } from '@abandonware/noble';
import { encodeFrame, FrameDecoder } from '../../../protocol/framing';
import {
  ACK_TIMEOUT_MS,
  BLE_ATT_HEADER_SIZE,
  BLE_RX_CHARACTERISTIC_UUID,
  BLE_SERVICE_UUID,
  BLE_TX_CHARACTERISTIC_UUID,
  MAX_FRAME_MESSAGE_SIZE,
} from '../../../protocol/constants';
import type { BleCentral } from './ble-central';
import { LinkClosedError, LinkWithListeners, type Link, type SendHint } from './link';

/** The protocol's largest ATT MTU (docs/device-protocol.md §1.2). */
export const BLE_MAX_MTU = 247;
/** The ATT default when no exchange happened. */
export const BLE_DEFAULT_MTU = 23;
/**
 * A conservative guess of one packet per 7.5 ms (the shortest connection interval) for the ACK
 * timeout allowance; the engine's RTT estimate takes over once answers come back.
 */
const BLE_PACKET_SECONDS = 0.0075;
/**
 * Longest a partly filled packet waits for the next frame when the sender said one follows. In a
 * windowed upload the next frame comes when an earlier block's ACK arrives, about one frame's air
 * time later; the wait ends at once when it comes.
 */
const BLE_COALESCE_HOLD_MS = 40;

export interface BleLinkOptions {
  /** Peripheral id or address, as noble reports it. */
  id: string;
  central: BleCentral | (() => Promise<BleCentral>);
}

/**
 * BLE GATT link: frames (SLIP + CRC-32, as on serial) go out as writes without response of at
 * most MTU − 3 bytes and come in as notifications. Queued frames are packed back to back into
 * full writes, because a BLE packet costs its slot whether full or not.
 */
export class BleLink extends LinkWithListeners implements Link {
  readonly kind = 'ble' as const;
  readonly mtu = MAX_FRAME_MESSAGE_SIZE;
  readonly ackTimeoutMs = ACK_TIMEOUT_MS.ble;
  readonly id: string;
  /** Negotiated ATT MTU of the current connection. */
  attMtu = BLE_DEFAULT_MTU;
  private readonly decoder = new FrameDecoder();
  private readonly getCentral: () => Promise<BleCentral>;
  private peripheral: Peripheral | undefined;
  private rx: Characteristic | undefined;
  private connection = 0;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private pumping = false;
  /** The last queued frame said another follows: a short last packet may wait for it. */
  private moreFollows = false;
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(options: BleLinkOptions) {
    super();
    this.id = options.id;
    const central = options.central;
    this.getCentral = typeof central === 'function' ? central : () => Promise.resolve(central);
  }

  get description(): string {
    return `ble:${this.id}`;
  }

  get bytesPerSecond(): number {
    return (this.attMtu - BLE_ATT_HEADER_SIZE) / BLE_PACKET_SECONDS;
  }

  get isOpen(): boolean {
    return this.rx !== undefined;
  }

  async open(signal?: AbortSignal): Promise<void> {
    if (this.isOpen) return;
    const central = await this.getCentral();
    const peripheral = await central.find(this.id, signal);
    await peripheral.connectAsync();
    try {
      const { characteristics } = await peripheral.discoverSomeServicesAndCharacteristicsAsync(
        [BLE_SERVICE_UUID],
        [BLE_RX_CHARACTERISTIC_UUID, BLE_TX_CHARACTERISTIC_UUID],
      );
      const rx = characteristics.find((c) => c.uuid === BLE_RX_CHARACTERISTIC_UUID);
      const tx = characteristics.find((c) => c.uuid === BLE_TX_CHARACTERISTIC_UUID);
      if (!rx || !tx) throw new Error(`${this.description} lacks the protocol's RX or TX characteristic`);
      const connection = ++this.connection;
      this.decoder.reset();
      tx.on('data', (data: Buffer) => {
        if (connection !== this.connection) return;
        for (const message of this.decoder.push(data)) this.listeners.emitMessage(message);
      });
      await tx.subscribeAsync();
      this.attMtu = Math.min(peripheral.mtu ?? BLE_DEFAULT_MTU, BLE_MAX_MTU);
      this.peripheral = peripheral;
      this.rx = rx;
      peripheral.once('disconnect', () => this.closed(connection, new Error('BLE disconnected')));
    } catch (error) {
      await peripheral.disconnectAsync().catch(() => undefined);
      throw error;
    }
  }

  send(message: Uint8Array, hint?: SendHint): void {
    if (!this.rx) throw new LinkClosedError(this.description);
    const frame = encodeFrame(message);
    this.pending.push(frame);
    this.pendingBytes += frame.length;
    this.moreFollows = hint?.moreFollows ?? false;
    this.kick();
  }

  private kick(): void {
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    if (!this.pumping) void this.pump(this.connection);
  }

  async close(): Promise<void> {
    const peripheral = this.peripheral;
    const connection = this.connection;
    if (!peripheral) return;
    await peripheral.disconnectAsync().catch(() => undefined);
    this.closed(connection, undefined);
  }

  /** Writes queued bytes in chunks of MTU − 3, each chunk as full as the queue allows. */
  private async pump(connection: number): Promise<void> {
    this.pumping = true;
    try {
      const packet = () => this.attMtu - BLE_ATT_HEADER_SIZE;
      while (this.pendingBytes > 0 && this.rx && connection === this.connection) {
        if (this.pendingBytes < packet() && this.moreFollows && this.holdTimer === undefined) {
          // Fill this packet with the next frame's first bytes, or send it short when none comes.
          this.holdTimer = setTimeout(() => {
            this.moreFollows = false;
            this.kick();
          }, BLE_COALESCE_HOLD_MS);
          return;
        }
        const chunk = this.takeChunk(packet());
        await this.rx.writeAsync(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), true);
      }
    } catch (error) {
      this.closed(connection, error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.pumping = false;
    }
  }

  private takeChunk(size: number): Uint8Array {
    const chunk = new Uint8Array(Math.min(size, this.pendingBytes));
    let filled = 0;
    while (filled < chunk.length) {
      const head = this.pending[0]!;
      const take = Math.min(head.length, chunk.length - filled);
      chunk.set(head.subarray(0, take), filled);
      filled += take;
      if (take === head.length) this.pending.shift();
      else this.pending[0] = head.subarray(take);
    }
    this.pendingBytes -= chunk.length;
    return chunk;
  }

  private closed(connection: number, error: Error | undefined): void {
    if (connection !== this.connection || !this.rx) return;
    this.connection++;
    clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.rx = undefined;
    this.peripheral = undefined;
    this.pending = [];
    this.pendingBytes = 0;
    this.listeners.emitClose(error);
  }
}
