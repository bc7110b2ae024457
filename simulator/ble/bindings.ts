import { EventEmitter } from 'node:events';
import { BLE_RX_CHARACTERISTIC_UUID, BLE_SERVICE_UUID, BLE_TX_CHARACTERISTIC_UUID } from '../../protocol/constants';
import { BLE_DISCONNECT_REASON, type BleCentral, type BleLink } from '../links/ble';
import { linkOf } from '../registry';
import type { SimulatedDevice } from '../simulated-device';
import { bleAir } from './air';

export interface SimulatedBleBindingsOptions {
  /** The MTU the central asks for (noble's HCI bindings ask for 256; the peripheral caps it). Default 247. */
  mtu?: number;
  /** How often an advertising peripheral is reported while scanning. Default 100 ms. */
  advertisingIntervalMs?: number;
  /** The adapter's own address, reported as noble.address. */
  address?: string;
}

/** The Client Characteristic Configuration descriptor every notify characteristic carries. */
const CCCD_UUID = '2902';

const CHARACTERISTICS = [
  { uuid: BLE_RX_CHARACTERISTIC_UUID, properties: ['writeWithoutResponse'] },
  { uuid: BLE_TX_CHARACTERISTIC_UUID, properties: ['notify'] },
];

/**
 * An object implementing the bindings interface that `@abandonware/noble/with-bindings` expects
 * (the methods and events of noble's lib/hci-socket/bindings.js), backed by simulated peripherals
 * instead of an HCI socket, so the real noble code (Peripheral, Service, Characteristic, its
 * event plumbing) runs in tests and in web mode without Bluetooth hardware.
 *
 * `devices`: the BLE devices this central can hear; all simulated BLE devices of the process
 * when omitted (also those started later).
 */
export function createSimulatedBleBindings(
  devices?: readonly SimulatedDevice[],
  options: SimulatedBleBindingsOptions = {},
): SimulatedBleBindings {
  return new SimulatedBleBindings(devices, options);
}

export class SimulatedBleBindings extends EventEmitter {
  private scanTimer: NodeJS.Timeout | undefined;
  private scanFilter: string[] = [];
  private readonly connections = new Map<string, BleLink>();
  private readonly pendingConnects = new Map<string, () => void>();
  private readonly centralMtu: number;
  private readonly advertisingIntervalMs: number;
  private readonly address: string;

  constructor(
    private readonly devices: readonly SimulatedDevice[] | undefined,
    options: SimulatedBleBindingsOptions,
  ) {
    super();
    this.centralMtu = options.mtu ?? 247;
    this.advertisingIntervalMs = options.advertisingIntervalMs ?? 100;
    this.address = options.address ?? '00:00:5e:00:53:01';
  }

  // ---- adapter ----------------------------------------------------------------------------------

  init(): void {
    process.nextTick(() => {
      this.emit('addressChange', this.address);
      this.emit('stateChange', 'poweredOn');
    });
  }

  reset(): void {
    this.stopScanning();
  }

  setScanParameters(): void {
    process.nextTick(() => this.emit('scanParametersSet'));
  }

  startScanning(serviceUuids?: string[], allowDuplicates?: boolean): void {
    this.scanFilter = (serviceUuids ?? []).map(normalizeUuid);
    clearInterval(this.scanTimer);
    this.scanTimer = setInterval(() => this.reportAdvertisers(), this.advertisingIntervalMs);
    process.nextTick(() => {
      this.emit('scanStart', !allowDuplicates);
      this.reportAdvertisers();
    });
  }

  stopScanning(): void {
    if (this.scanTimer === undefined) return;
    clearInterval(this.scanTimer);
    this.scanTimer = undefined;
    process.nextTick(() => this.emit('scanStop'));
  }

  // ---- connections ------------------------------------------------------------------------------

  /** Like HCI LE Create Connection: waits until the peripheral advertises (or cancelConnect). */
  connect(peripheralUuid: string): void {
    const link = this.find(peripheralUuid);
    if (link === undefined) {
      process.nextTick(() => this.emit('connect', peripheralUuid, new Error('Unknown peripheral (simulated)')));
      return;
    }
    const attempt = () => {
      const mtu = link.accept(this.centralFor(peripheralUuid, link), this.centralMtu);
      if (mtu === undefined) return false;
      this.connections.set(peripheralUuid, link);
      // One connection interval to set up, as on air; then the ATT MTU exchange noble's HCI bindings do.
      setTimeout(
        () => {
          this.emit('connect', peripheralUuid, null);
          this.emit('onMtu', peripheralUuid, mtu);
        },
        link.wire.inbound.transmitSeconds(0) * 1000,
      );
      return true;
    };
    if (attempt()) return;
    const onAdvertising = () => {
      if (attempt()) cancel();
    };
    const cancel = () => {
      link.off('advertising', onAdvertising);
      this.pendingConnects.delete(peripheralUuid);
    };
    link.on('advertising', onAdvertising);
    this.pendingConnects.set(peripheralUuid, cancel);
  }

  cancelConnect(peripheralUuid: string): void {
    // noble's Peripheral.cancelConnect emits the 'connect' error itself.
    this.pendingConnects.get(peripheralUuid)?.();
  }

  disconnect(peripheralUuid: string): void {
    const link = this.connections.get(peripheralUuid);
    this.pendingConnects.get(peripheralUuid)?.();
    if (link === undefined) {
      process.nextTick(() => this.emit('disconnect', peripheralUuid, BLE_DISCONNECT_REASON.localHostTerminated));
      return;
    }
    this.connections.delete(peripheralUuid);
    link.release();
    process.nextTick(() => this.emit('disconnect', peripheralUuid, BLE_DISCONNECT_REASON.localHostTerminated));
  }

  updateRssi(peripheralUuid: string): void {
    process.nextTick(() => this.emit('rssiUpdate', peripheralUuid, rssiOf(peripheralUuid)));
  }

  // ---- GATT ---------------------------------------------------------------------------------------

  discoverServices(peripheralUuid: string, uuids?: string[]): void {
    const filter = (uuids ?? []).map(normalizeUuid);
    const services = [BLE_SERVICE_UUID].filter((u) => filter.length === 0 || filter.includes(u));
    this.whenConnected(peripheralUuid, () => this.emit('servicesDiscover', peripheralUuid, services));
  }

  discoverIncludedServices(peripheralUuid: string, serviceUuid: string): void {
    this.whenConnected(peripheralUuid, () => this.emit('includedServicesDiscover', peripheralUuid, serviceUuid, []));
  }

  discoverCharacteristics(peripheralUuid: string, serviceUuid: string, characteristicUuids?: string[]): void {
    const filter = (characteristicUuids ?? []).map(normalizeUuid);
    const found =
      serviceUuid === BLE_SERVICE_UUID
        ? CHARACTERISTICS.filter((c) => filter.length === 0 || filter.includes(c.uuid))
        : [];
    this.whenConnected(peripheralUuid, () =>
      this.emit(
        'characteristicsDiscover',
        peripheralUuid,
        serviceUuid,
        found.map((c) => ({ uuid: c.uuid, properties: [...c.properties] })),
      ),
    );
  }

  read(peripheralUuid: string, serviceUuid: string, characteristicUuid: string): void {
    // Neither characteristic is readable; answer empty rather than leave a caller hanging.
    this.whenConnected(peripheralUuid, () =>
      this.emit('read', peripheralUuid, serviceUuid, characteristicUuid, Buffer.alloc(0), false),
    );
  }

  write(
    peripheralUuid: string,
    serviceUuid: string,
    characteristicUuid: string,
    data: Buffer,
    _withoutResponse: boolean,
  ): void {
    const link = this.connections.get(peripheralUuid);
    if (link !== undefined && serviceUuid === BLE_SERVICE_UUID && characteristicUuid === BLE_RX_CHARACTERISTIC_UUID)
      link.write(data);
    // A write without response completes once queued, as noble's HCI bindings report it.
    this.whenConnected(peripheralUuid, () => this.emit('write', peripheralUuid, serviceUuid, characteristicUuid));
  }

  broadcast(peripheralUuid: string, serviceUuid: string, characteristicUuid: string, broadcast: boolean): void {
    this.whenConnected(peripheralUuid, () =>
      this.emit('broadcast', peripheralUuid, serviceUuid, characteristicUuid, broadcast),
    );
  }

  notify(peripheralUuid: string, serviceUuid: string, characteristicUuid: string, notify: boolean): void {
    const link = this.connections.get(peripheralUuid);
    if (link !== undefined && characteristicUuid === BLE_TX_CHARACTERISTIC_UUID) link.setNotify(notify);
    this.whenConnected(peripheralUuid, () =>
      this.emit('notify', peripheralUuid, serviceUuid, characteristicUuid, notify),
    );
  }

  discoverDescriptors(peripheralUuid: string, serviceUuid: string, characteristicUuid: string): void {
    const descriptors = characteristicUuid === BLE_TX_CHARACTERISTIC_UUID ? [CCCD_UUID] : [];
    this.whenConnected(peripheralUuid, () =>
      this.emit('descriptorsDiscover', peripheralUuid, serviceUuid, characteristicUuid, descriptors),
    );
  }

  readValue(peripheralUuid: string, serviceUuid: string, characteristicUuid: string, descriptorUuid: string): void {
    this.whenConnected(peripheralUuid, () =>
      this.emit('valueRead', peripheralUuid, serviceUuid, characteristicUuid, descriptorUuid, Buffer.from([0, 0])),
    );
  }

  writeValue(
    peripheralUuid: string,
    serviceUuid: string,
    characteristicUuid: string,
    descriptorUuid: string,
    data: Buffer,
  ): void {
    // Writing the CCCD is how a central subscribes without noble's notify().
    if (descriptorUuid === CCCD_UUID && characteristicUuid === BLE_TX_CHARACTERISTIC_UUID) {
      this.connections.get(peripheralUuid)?.setNotify((data[0]! & 1) === 1);
    }
    this.whenConnected(peripheralUuid, () =>
      this.emit('valueWrite', peripheralUuid, serviceUuid, characteristicUuid, descriptorUuid),
    );
  }

  readHandle(peripheralUuid: string, handle: number): void {
    this.whenConnected(peripheralUuid, () => this.emit('handleRead', peripheralUuid, handle, Buffer.alloc(0)));
  }

  writeHandle(peripheralUuid: string, handle: number): void {
    this.whenConnected(peripheralUuid, () => this.emit('handleWrite', peripheralUuid, handle));
  }

  /** This central goes away (its process ended): every connection and pending connect ends. */
  releaseAll(): void {
    this.stopScanning();
    for (const cancel of [...this.pendingConnects.values()]) cancel();
    for (const [uuid, link] of [...this.connections]) {
      this.connections.delete(uuid);
      link.release();
    }
  }

  // noble calls these when a caller adds services it already knows; nothing to do here.
  addService(): void {}
  addCharacteristics(): void {}

  // ---- internals ----------------------------------------------------------------------------------

  private reportAdvertisers(): void {
    for (const link of this.audible()) {
      if (!link.advertising) continue;
      const advertised = link.advertisement.serviceUuids;
      if (this.scanFilter.length > 0 && !this.scanFilter.some((u) => advertised.includes(u))) continue;
      // Copies: noble merges later reports into the object it keeps.
      const advertisement = {
        ...link.advertisement,
        serviceUuids: [...advertised],
        serviceData: [],
        serviceSolicitationUuids: [],
      };
      this.emit('discover', link.uuid, link.bleAddress, 'random', true, advertisement, rssiOf(link.uuid), true);
    }
  }

  private audible(): BleLink[] {
    if (this.devices === undefined) return [...bleAir];
    return this.devices.map((d) => linkOf(d)).filter((l): l is BleLink => l !== undefined && l.kind === 'ble');
  }

  private find(peripheralUuid: string): BleLink | undefined {
    return this.audible().find((l) => l.uuid === peripheralUuid);
  }

  private centralFor(peripheralUuid: string, link: BleLink): BleCentral {
    return {
      notification: (data) =>
        this.emit('read', peripheralUuid, BLE_SERVICE_UUID, BLE_TX_CHARACTERISTIC_UUID, data, true),
      disconnected: (reason) => {
        if (this.connections.get(peripheralUuid) !== link) return;
        this.connections.delete(peripheralUuid);
        this.emit('disconnect', peripheralUuid, reason);
      },
    };
  }

  /** GATT answers come asynchronously, and only while connected (a real ATT request would time out). */
  private whenConnected(peripheralUuid: string, answer: () => void): void {
    process.nextTick(() => {
      if (this.connections.has(peripheralUuid)) answer();
    });
  }
}

/** noble reports 128-bit UUIDs lower-case without dashes. */
function normalizeUuid(uuid: string): string {
  return uuid.toLowerCase().replaceAll('-', '');
}

/** A plausible, stable RSSI per peripheral. */
function rssiOf(peripheralUuid: string): number {
  let sum = 0;
  for (const c of peripheralUuid) sum += c.charCodeAt(0);
  return -40 - (sum % 30);
}
