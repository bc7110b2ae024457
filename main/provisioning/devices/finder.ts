import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLink, DeviceSession as ProtocolSession, formatLinkSpec, identify, parseLinkSpec, type BleCentral, type LinkFactoryDeps } from '../../devices';
import { processIsAlive } from '../durable-lock';
import { SERIAL_DEFAULT_BAUD_RATE, USB_PRODUCT_ID } from '../../devices/protocol/constants';
import type { AttachedDevice, AttachedLinkKind, DeviceFinder } from '../device-port';
import { identityOf } from './identity';

/**
 * Finds attached devices: USB serial ports with the vendor's product id, the simulator's ptys
 * (SerialPort.list() never lists ptys; the simulator announces them in a directory), BLE
 * peripherals advertising the protocol's service, and any link given explicitly (UDP devices
 * cannot be discovered). Every candidate is confirmed with GET /info before it is listed.
 */

export interface FinderOptions {
  linkDeps?: LinkFactoryDeps;
  /** Where the simulator announces its ptys; default env PROVISIONER_SIMULATOR_DIR or <tmp>/provisioner-simulator. */
  simulatorDir?: string;
  /** Look for USB serial ports (default true). */
  usb?: boolean;
  /** The BLE central to scan with; none: no BLE scan. */
  bleCentral?: () => Promise<BleCentral>;
  /** How long a BLE scan listens. Default 2 s. */
  bleScanMs?: number;
  /** How long one candidate may take to answer GET /info. Default 4 s. */
  probeTimeoutMs?: number;
}

export function defaultSimulatorDir(): string {
  return process.env.PROVISIONER_SIMULATOR_DIR ?? join(tmpdir(), 'provisioner-simulator');
}

function serialSpec(path: string, baudRate: number | undefined): string {
  return formatLinkSpec({ kind: 'serial', path, ...(baudRate !== undefined && baudRate !== SERIAL_DEFAULT_BAUD_RATE ? { baudRate } : {}) });
}

async function simulatorPorts(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const specs: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const descriptor = JSON.parse(await readFile(join(dir, name), 'utf8')) as { link?: string; path?: string; pid?: number; baudRate?: number };
      // A descriptor left by a simulator that was killed names a pty that is gone.
      if (descriptor.link !== 'serial' || typeof descriptor.path !== 'string' || (typeof descriptor.pid === 'number' && !processIsAlive(descriptor.pid))) continue;
      specs.push(serialSpec(descriptor.path, descriptor.baudRate));
    } catch {
      // being rewritten, or not ours
    }
  }
  return specs;
}

async function usbPorts(): Promise<string[]> {
  try {
    const { SerialPort } = await import('serialport');
    const ports = await SerialPort.list();
    const wanted = USB_PRODUCT_ID.toString(16).toLowerCase();
    return ports.filter((p) => (p.productId ?? '').toLowerCase() === wanted).map((p) => serialSpec(p.path, undefined));
  } catch {
    return []; // no udev, no native binding: no USB discovery here
  }
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
  let session: ProtocolSession | undefined;
  try {
    const link = createLink(parseLinkSpec(spec), options.linkDeps);
    await link.open(probing);
    session = new ProtocolSession(link, {});
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
      const [simulated, usb, ble] = await Promise.all([
        simulatorPorts(options.simulatorDir ?? defaultSimulatorDir()),
        options.usb === false ? Promise.resolve([]) : usbPorts(),
        options.bleCentral ? blePeripherals(options.bleCentral, options.bleScanMs ?? 2000, call.signal) : Promise.resolve([]),
      ]);
      const specs = [...new Set([...simulated, ...usb, ...ble, ...(call.extraLinks ?? [])])];
      // Probed at once: each waits on its own device, and 16 serial ports one after the other would take a while.
      const found = await Promise.all(specs.map((spec) => probe(spec, options, call.signal)));
      return found.sort((a, b) => (a.identity?.serialNumber ?? a.link).localeCompare(b.identity?.serialNumber ?? b.link));
    },
  };
}
