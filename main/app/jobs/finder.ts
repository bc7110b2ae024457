import {
  createLink,
  DeviceSession,
  formatLinkSpec,
  identify,
  listSerialCandidates,
  parseLinkSpec,
  type BleCentral,
  type LinkFactoryDeps,
} from '../../devices';
import { SERIAL_DEFAULT_BAUD_RATE } from '../../../protocol/constants';
import type { AttachedDevice, AttachedLinkKind, DeviceFinder } from './device-port';
import { identityOf } from './identity';

/**
 * Finds attached devices once (the CLI's `device list`, a serial number to look up): USB serial
 * ports with the vendor's product id and the simulator's ptys (listed by main/devices/discovery),
 * BLE peripherals advertising the protocol's service during a short scan, and any link given
 * explicitly (UDP devices cannot be discovered). Every candidate is confirmed with GET /info; a
 * given link that does not answer is listed with the reason. The app's live list is
 * main/devices' LiveDeviceList.
 */

export interface FinderOptions {
  linkDeps?: LinkFactoryDeps;
  /** Ports to ask beyond USB product id 0xD101; default `$PROVISIONER_PORTS`. */
  portGlobs?: readonly string[];
  /** Look for USB serial ports (default true). */
  usb?: boolean;
  /** The BLE central to scan with; none: no BLE scan. */
  bleCentral?: () => Promise<BleCentral>;
  /** How long a BLE scan listens. Default 2 s. */
  bleScanMs?: number;
  /** How long one candidate may take to answer GET /info. Default 4 s. */
  probeTimeoutMs?: number;
}

function serialSpec(path: string, baudRate: number | undefined): string {
  return formatLinkSpec({ kind: 'serial', path, ...(baudRate !== undefined && baudRate !== SERIAL_DEFAULT_BAUD_RATE ? { baudRate } : {}) });
}

/** USB ports with the vendor's product id and the simulator's ptys, as main/devices lists them. */
async function serialPorts(options: FinderOptions): Promise<string[]> {
  const candidates = await listSerialCandidates({
    ...(options.portGlobs !== undefined ? { portGlobs: options.portGlobs } : {}),
    ...(options.usb === false ? { listPorts: async () => [] } : {}),
  });
  return candidates.map((c) => serialSpec(c.path, c.baudRate));
}

async function blePeripherals(central: () => Promise<BleCentral>, scanMs: number, signal?: AbortSignal): Promise<string[]> {
  let ble: BleCentral;
  try {
    ble = await central();
  } catch {
    return []; // no Bluetooth on this computer
  }
  const ids = new Set<string>();
  const stop = await ble.scan((peripheral) => ids.add(peripheral.id), signal);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, scanMs);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await stop();
  return [...ids].map((id) => `ble:${id}`);
}

function kindOf(spec: string): AttachedLinkKind {
  const kind = parseLinkSpec(spec).kind;
  return kind;
}

async function probe(spec: string, options: FinderOptions, signal?: AbortSignal): Promise<AttachedDevice> {
  const timeout = AbortSignal.timeout(options.probeTimeoutMs ?? 4000);
  const probing = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let session: DeviceSession | undefined;
  try {
    const link = createLink(parseLinkSpec(spec), options.linkDeps);
    await link.open(probing);
    session = new DeviceSession(link, {});
    const identity = identityOf(await identify(session, { signal: probing, maxRetransmit: 1 }));
    return { link: spec, linkKind: kindOf(spec), identity, error: null };
  } catch (error) {
    const message = timeout.aborted ? 'no answer to the info request' : error instanceof Error ? error.message : String(error);
    return { link: spec, linkKind: kindOf(spec), identity: null, error: message };
  } finally {
    await session?.close().catch(() => undefined);
  }
}

export function createDeviceFinder(options: FinderOptions = {}): DeviceFinder {
  return {
    async list(call = {}): Promise<AttachedDevice[]> {
      const [serial, ble] = await Promise.all([
        serialPorts(options),
        options.bleCentral ? blePeripherals(options.bleCentral, options.bleScanMs ?? 2000, call.signal) : Promise.resolve([]),
      ]);
      const specs = [...new Set([...serial, ...ble, ...(call.extraLinks ?? [])])];
      // Probed at once: each waits on its own device, and 16 serial ports one after the other would take a while.
      const found = await Promise.all(specs.map((spec) => probe(spec, options, call.signal)));
      return found.sort((a, b) => (a.identity?.serialNumber ?? a.link).localeCompare(b.identity?.serialNumber ?? b.link));
    },
  };
}
