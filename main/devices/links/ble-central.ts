import type * as NobleModule from '@abandonware/noble';
import type { Peripheral } from '@abandonware/noble';
import { BLE_SERVICE_UUID } from '../../../protocol/constants';

export type Noble = typeof NobleModule;

/**
 * Loads noble only when BLE is used: its default entry opens an HCI socket on load and throws
 * EAFNOSUPPORT where there is no Bluetooth. With `bindings` (the simulator's, or any object of
 * noble's bindings interface) the real noble code runs on top of them instead.
 */
export async function loadNoble(bindings?: unknown): Promise<Noble> {
  if (bindings !== undefined) {
    const module = await import('@abandonware/noble/with-bindings');
    return module.default(bindings);
  }
  const module = (await import('@abandonware/noble')) as Noble & { default?: Noble };
  return module.default ?? module;
}

/** noble reports ids without colons, addresses with; people type either, in either case. */
export function normalizeBleId(id: string): string {
  return id.toLowerCase().replace(/[^0-9a-z]/g, '');
}

export function peripheralMatches(peripheral: Peripheral, id: string): boolean {
  const wanted = normalizeBleId(id);
  return normalizeBleId(peripheral.id) === wanted || normalizeBleId(peripheral.address ?? '') === wanted;
}

/**
 * One noble instance, shared by discovery and links: waits for the adapter, scans for the
 * protocol's service and hands out the Peripheral objects noble needs to connect.
 */
export class BleCentral {
  private scanners = 0;

  constructor(readonly noble: Noble) {}

  static async create(bindings?: unknown): Promise<BleCentral> {
    return new BleCentral(await loadNoble(bindings));
  }

  async poweredOn(signal?: AbortSignal): Promise<void> {
    const noble = this.noble as Noble & { state?: string };
    // Reading `state` initializes the bindings.
    if (noble.state === 'poweredOn') return;
    await new Promise<void>((resolve, reject) => {
      const onState = (state: string) => {
        if (state === 'poweredOn') done(resolve);
        else if (state === 'unsupported' || state === 'unauthorized')
          done(() => reject(new Error(`Bluetooth is ${state} on this computer`)));
      };
      const onAbort = () => done(() => reject(signal!.reason));
      const done = (settle: () => void) => {
        this.noble.removeListener('stateChange', onState);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      this.noble.on('stateChange', onState);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Reports every advertisement of the service until the returned function is called. Duplicates
   * are reported too, so a live list can see that a device is still there.
   */
  async scan(onPeripheral: (peripheral: Peripheral) => void, signal?: AbortSignal): Promise<() => Promise<void>> {
    await this.poweredOn(signal);
    this.noble.on('discover', onPeripheral);
    if (this.scanners++ === 0) await this.noble.startScanningAsync([BLE_SERVICE_UUID], true);
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      this.noble.removeListener('discover', onPeripheral);
      if (--this.scanners === 0) await this.noble.stopScanningAsync();
    };
  }

  /** Scans until the peripheral with this id or address advertises. */
  async find(id: string, signal?: AbortSignal): Promise<Peripheral> {
    let stop: (() => Promise<void>) | undefined;
    try {
      return await new Promise<Peripheral>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        this.scan((peripheral) => {
          if (peripheralMatches(peripheral, id)) resolve(peripheral);
        }, signal).then((s) => {
          stop = s;
        }, reject);
      });
    } finally {
      // The scan may still be starting when the peripheral is found.
      await Promise.resolve();
      await stop?.();
    }
  }
}

let systemCentral: Promise<BleCentral> | undefined;

/** The computer's own Bluetooth adapter, one noble for the whole process. */
export function systemBleCentral(): Promise<BleCentral> {
  systemCentral ??= BleCentral.create().catch((error: unknown) => {
    systemCentral = undefined;
    throw error;
  });
  return systemCentral;
}
