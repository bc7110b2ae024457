import { createRequire } from 'node:module';
import type * as NobleModule from '@abandonware/noble';
import {
  BLE_ATT_HEADER_SIZE,
  BLE_RX_CHARACTERISTIC_UUID,
  BLE_SERVICE_UUID,
  BLE_TX_CHARACTERISTIC_UUID,
} from '../../../protocol/constants';
import { framedTransport, type Transport } from './transports';

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
export async function connectTransport(
  peripheral: Peripheral,
  options: { connected?: boolean } = {},
): Promise<Transport & { mtu: number; writes: number[] }> {
  if (!options.connected) await peripheral.connectAsync();
  const { characteristics } = await peripheral.discoverSomeServicesAndCharacteristicsAsync(
    [BLE_SERVICE_UUID],
    [BLE_RX_CHARACTERISTIC_UUID, BLE_TX_CHARACTERISTIC_UUID],
  );
  const rx = characteristics.find((c) => c.uuid === BLE_RX_CHARACTERISTIC_UUID)!;
  const tx = characteristics.find((c) => c.uuid === BLE_TX_CHARACTERISTIC_UUID)!;
  await tx.subscribeAsync();
  const mtu = peripheral.mtu ?? 23;
  const writes: number[] = [];
  const framed = framedTransport(
    {
      // One write without response per ATT packet: the payload is MTU - 3.
      write: (bytes) => {
        const chunk = mtu - BLE_ATT_HEADER_SIZE;
        for (let offset = 0; offset < bytes.length; offset += chunk) {
          const part = Buffer.from(bytes.subarray(offset, offset + chunk));
          writes.push(part.length);
          rx.write(part, true);
        }
      },
      close: async () => {
        if (framed.transport.isOpen) await peripheral.disconnectAsync();
      },
    },
    { mtu, writes },
  );
  tx.on('data', (data: Buffer) => framed.received(new Uint8Array(data)));
  peripheral.once('disconnect', () => framed.ended());
  return framed.transport;
}
