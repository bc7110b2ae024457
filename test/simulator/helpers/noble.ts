import { createRequire } from 'node:module';
import type * as NobleModule from '@abandonware/noble';
import { encodeFrame, FrameDecoder } from '../../../protocol/framing';
import { BLE_ATT_HEADER_SIZE, BLE_RX_CHARACTERISTIC_UUID, BLE_SERVICE_UUID, BLE_TX_CHARACTERISTIC_UUID } from '../../../protocol/constants';
import type { Transport } from './transports';

export type Noble = typeof NobleModule;
export type Peripheral = NobleModule.Peripheral;

const require = createRequire(import.meta.url);

/** The real noble, on the bindings given (no HCI socket is touched: with-bindings loads no native code). */
export function nobleWith(bindings: unknown): Noble {
  const withBindings = require('@abandonware/noble/with-bindings') as (bindings: unknown) => Noble;
  return withBindings(bindings);
}

export async function poweredOn(noble: Noble): Promise<void> {
  if (noble._state === 'poweredOn') return;
  await new Promise<void>((resolve) => {
    const listener = (state: string) => {
      if (state === 'poweredOn') {
        noble.removeListener('stateChange', listener);
        resolve();
      }
    };
    noble.on('stateChange', listener);
  });
}

/** Scans for the protocol's service until a peripheral with `localName` shows up. */
export async function scanFor(noble: Noble, localName: string): Promise<Peripheral> {
  await poweredOn(noble);
  const found = new Promise<Peripheral>((resolve) => {
    const listener = (peripheral: Peripheral) => {
      if (peripheral.advertisement.localName !== localName) return;
      noble.removeListener('discover', listener);
      resolve(peripheral);
    };
    noble.on('discover', listener);
  });
  await noble.startScanningAsync([BLE_SERVICE_UUID], false);
  const peripheral = await found;
  await noble.stopScanningAsync();
  return peripheral;
}

/** Connects, finds RX and TX, subscribes to TX: a byte stream carrying SLIP frames, as a Transport. */
export async function connectTransport(peripheral: Peripheral, options: { connected?: boolean } = {}): Promise<Transport & { mtu: number; writes: number[] }> {
  if (!options.connected) await peripheral.connectAsync();
  const { characteristics } = await peripheral.discoverSomeServicesAndCharacteristicsAsync([BLE_SERVICE_UUID], [BLE_RX_CHARACTERISTIC_UUID, BLE_TX_CHARACTERISTIC_UUID]);
  const rx = characteristics.find((c) => c.uuid === BLE_RX_CHARACTERISTIC_UUID)!;
  const tx = characteristics.find((c) => c.uuid === BLE_TX_CHARACTERISTIC_UUID)!;
  await tx.subscribeAsync();
  const mtu = peripheral.mtu ?? 23;
  const decoder = new FrameDecoder();
  const listeners: ((message: Uint8Array) => void)[] = [];
  const closeListeners: (() => void)[] = [];
  let open = true;
  tx.on('data', (data: Buffer) => {
    for (const message of decoder.push(new Uint8Array(data))) for (const l of listeners) l(message);
  });
  peripheral.once('disconnect', () => {
    open = false;
    for (const l of closeListeners) l();
  });
  const writes: number[] = [];
  const write = (bytes: Uint8Array) => {
    const chunk = mtu - BLE_ATT_HEADER_SIZE;
    for (let offset = 0; offset < bytes.length; offset += chunk) {
      const part = Buffer.from(bytes.subarray(offset, offset + chunk));
      writes.push(part.length);
      rx.write(part, true);
    }
  };
  return {
    mtu,
    writes,
    send: (message) => {
      if (open) write(encodeFrame(message));
    },
    sendRaw: (bytes) => {
      if (open) write(bytes);
    },
    onMessage: (l) => listeners.push(l),
    onClose: (l) => closeListeners.push(l),
    get isOpen() {
      return open;
    },
    close: async () => {
      if (open) await peripheral.disconnectAsync();
    },
  };
}
