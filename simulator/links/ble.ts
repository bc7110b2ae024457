import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { BLE_ATT_HEADER_SIZE, BLE_SERVICE_UUID } from '../../protocol/constants';
import type { BleOptions } from '../options';
import type { DeviceFaults } from '../faults';
import { bleWireModel, type WireModel } from '../wire/models';
import { PacedChannel } from '../wire/paced-channel';
import { waitForDrain } from './drain';
import { FrameStream } from './frame-stream';
import type { DeviceLink, LinkAddress, MessageReceiver } from './link';
import { bleAir } from '../ble/air';

/** HCI disconnect reasons (Bluetooth Core, Vol 1 Part F). */
export const BLE_DISCONNECT_REASON = {
  connectionTimeout: 0x08,
  remoteUserTerminated: 0x13,
  localHostTerminated: 0x16,
} as const;

/** The central's end of a connection, implemented by the simulated noble bindings. */
export interface BleCentral {
  /** A notification of the TX characteristic arrives. */
  notification(data: Buffer): void;
  /** The peripheral ended the connection (reboot, power loss, pulled). */
  disconnected(reason: number): void;
}

export interface BleAdvertisement {
  localName: string;
  txPowerLevel: number;
  manufacturerData: Buffer;
  serviceData: { uuid: string; data: Buffer }[];
  serviceUuids: string[];
  serviceSolicitationUuids: string[];
}

interface Connection {
  central: BleCentral;
  mtu: number;
  notifying: boolean;
  wire: WireModel;
  inbound: PacedChannel<Uint8Array>;
  outbound: PacedChannel<Uint8Array>;
}

export interface BleLinkOptions {
  serialNumber: string;
  deviceType: string;
  ble: Required<BleOptions>;
  faults: DeviceFaults;
}

export interface BleLinkStats {
  /** Writes longer than MTU - 3: a real peripheral never sees them whole, so they are dropped. */
  oversizeWrites: number;
  /** Notifications dropped because the central had not subscribed to TX. */
  unsubscribedNotifications: number;
}

/**
 * The device's BLE peripheral: advertises the protocol's service while up, takes one connection,
 * negotiates the MTU, receives the SLIP stream as writes without response on RX and sends it as
 * notifications on TX, each write and notification one packet of at most MTU - 3 bytes paced by
 * the connection interval model.
 */
export class BleLink extends EventEmitter implements DeviceLink {
  readonly kind = 'ble' as const;
  readonly bleAddress: string;
  /** noble's peripheral id: the address without colons. */
  readonly uuid: string;
  readonly advertisement: BleAdvertisement;
  readonly stats: BleLinkStats = { oversizeWrites: 0, unsubscribedNotifications: 0 };
  private readonly frames: FrameStream;
  private receiver: MessageReceiver = () => undefined;
  private connection: Connection | null = null;
  private up_ = false;
  /** Each connection is its own CoAP peer (section 2: one peer per connection). */
  private connections = 0;

  constructor(private readonly options: BleLinkOptions) {
    super();
    this.bleAddress = bleAddressOf(options.serialNumber);
    this.uuid = this.bleAddress.replaceAll(':', '');
    this.frames = new FrameStream(options.faults);
    this.advertisement = {
      // docs/device-protocol.md 1.2: <deviceType>-<serialNumber>.
      localName: `${options.deviceType}-${options.serialNumber}`,
      txPowerLevel: 0,
      // 0xFFFF is the company id reserved for testing; the device type follows so a scan can show it.
      manufacturerData: Buffer.concat([Buffer.from([0xff, 0xff]), Buffer.from(options.deviceType, 'ascii')]),
      serviceData: [],
      serviceUuids: [BLE_SERVICE_UUID],
      serviceSolicitationUuids: [],
    };
  }

  get wire(): { inbound: WireModel; outbound: WireModel } {
    const model = this.connection?.wire ?? this.modelFor(this.options.ble.mtu);
    return { inbound: model, outbound: model };
  }

  get isUp(): boolean {
    return this.up_;
  }

  /** Connectable and visible to scans. */
  get advertising(): boolean {
    return this.up_ && this.connection === null;
  }

  get connected(): boolean {
    return this.connection !== null;
  }

  address(): LinkAddress {
    return { link: 'ble', bleAddress: this.bleAddress };
  }

  async open(receiver: MessageReceiver): Promise<void> {
    this.receiver = receiver;
    bleAir.add(this);
  }

  async up(): Promise<void> {
    this.up_ = true;
    this.emit('advertising');
  }

  async down(): Promise<void> {
    this.up_ = false;
    // A device that reboots or loses power just stops answering: the central's supervision timeout.
    this.drop(BLE_DISCONNECT_REASON.connectionTimeout);
  }

  // ---- the central's side (called by the simulated bindings) ----------------------------------

  /** Returns the negotiated MTU, or undefined when the peripheral is not connectable. */
  accept(central: BleCentral, centralMtu: number): number | undefined {
    if (!this.advertising) return undefined;
    const mtu = Math.max(23, Math.min(centralMtu, this.options.ble.mtu));
    const wire = this.modelFor(mtu);
    this.frames.reset();
    const peer = `ble-connection-${++this.connections}`;
    this.connection = {
      central,
      mtu,
      notifying: false,
      wire,
      inbound: new PacedChannel<Uint8Array>(wire, (chunk) => {
        for (const message of this.frames.receive(chunk)) this.receiver(message, peer);
      }),
      outbound: new PacedChannel<Uint8Array>(wire, (chunk) => {
        const connection = this.connection;
        if (connection === null) return;
        if (!connection.notifying) {
          this.stats.unsubscribedNotifications++;
          return;
        }
        connection.central.notification(Buffer.from(chunk));
      }),
    };
    return mtu;
  }

  /** The central disconnects. */
  release(): void {
    this.clearConnection();
    if (this.advertising) this.emit('advertising');
  }

  /** A write without response on RX. */
  write(data: Uint8Array): void {
    const connection = this.connection;
    if (connection === null) return;
    if (data.length > connection.mtu - BLE_ATT_HEADER_SIZE) {
      this.stats.oversizeWrites++;
      return;
    }
    connection.inbound.send(new Uint8Array(data));
  }

  setNotify(enabled: boolean): void {
    if (this.connection !== null) this.connection.notifying = enabled;
  }

  // ---- the device's side ----------------------------------------------------------------------

  send(message: Uint8Array): void {
    const connection = this.connection;
    if (connection === null) return;
    const frame = this.frames.send(message);
    if (frame === undefined) return;
    const chunk = connection.mtu - BLE_ATT_HEADER_SIZE;
    for (let offset = 0; offset < frame.length; offset += chunk)
      connection.outbound.send(frame.subarray(offset, offset + chunk));
  }

  async drained(): Promise<void> {
    if (this.connection) await waitForDrain(this.connection.outbound);
  }

  hold(ms: number): void {
    this.connection?.inbound.hold(ms);
    this.connection?.outbound.hold(ms);
  }

  /** The device ends the connection now (reboot: the central sees it drop). */
  drop(reason: number): void {
    const connection = this.connection;
    if (connection === null) return;
    this.clearConnection();
    connection.central.disconnected(reason);
  }

  async close(): Promise<void> {
    await this.down();
    bleAir.delete(this);
  }

  private clearConnection(): void {
    this.connection?.inbound.clear();
    this.connection?.outbound.clear();
    this.connection = null;
    this.frames.reset();
  }

  private modelFor(mtu: number): WireModel {
    return bleWireModel({
      mtu,
      connectionIntervalMs: this.options.ble.connectionIntervalMs,
      packetsPerInterval: this.options.ble.packetsPerInterval,
    });
  }
}

/** A stable, locally administered static address derived from the serial number. */
export function bleAddressOf(serialNumber: string): string {
  const digest = createHash('sha256').update(`provisioner-simulator/${serialNumber}`).digest();
  // Static random addresses have the two top bits set (Bluetooth Core Vol 6 Part B §1.3.2.1).
  digest[0] = digest[0]! | 0xc0;
  return [...digest.subarray(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join(':');
}
