import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { USB_PRODUCT_ID } from '../../../protocol/constants';

/** What SerialPort.list() reports per port (the fields we use). */
export interface PortListing {
  path: string;
  productId?: string;
  vendorId?: string;
  serialNumber?: string;
}

/** A port worth asking GET /info. */
export interface SerialCandidate {
  path: string;
  baudRate?: number;
  /** 'usb' from SerialPort.list(), 'simulator' from a descriptor file. */
  source: 'usb' | 'simulator';
  /** What the USB descriptor or the simulator says, before the device confirms it. */
  serialNumberHint?: string;
}

export interface SerialCandidateSources {
  /** Default SerialPort.list(), loaded lazily. */
  listPorts?: () => Promise<PortListing[]>;
  /** Where running simulated devices publish descriptor JSON files; default env PROVISIONER_SIMULATOR_DIR or tmp/provisioner-simulator. */
  simulatorDir?: string;
  /** Told once per failing source (no udevadm, unreadable directory) instead of failing the list. */
  onWarning?: (message: string) => void;
}

export function defaultSimulatorDir(): string {
  return process.env.PROVISIONER_SIMULATOR_DIR ?? join(tmpdir(), 'provisioner-simulator');
}

async function systemListPorts(): Promise<PortListing[]> {
  const { SerialPort } = await import('serialport');
  return SerialPort.list();
}

/** USB ids come as 'd101', 'D101' or '0xd101' depending on the platform. */
export function isProvisionerProductId(productId: string | undefined): boolean {
  if (!productId) return false;
  return Number.parseInt(productId.replace(/^0x/i, ''), 16) === USB_PRODUCT_ID;
}

function processAlive(pid: unknown): boolean {
  if (typeof pid !== 'number') return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Descriptor files of running simulated serial devices (SerialPort.list() never lists ptys). */
export async function simulatorCandidates(dir: string): Promise<SerialCandidate[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const candidates: SerialCandidate[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    try {
      const descriptor = JSON.parse(await readFile(join(dir, name), 'utf8')) as Record<string, unknown>;
      if (descriptor.link !== 'serial' || typeof descriptor.path !== 'string') continue;
      if (!isProvisionerProductId(String(descriptor.productId ?? ''))) continue;
      // A killed simulator leaves its file behind; its pty is gone.
      if (!processAlive(descriptor.pid)) continue;
      await stat(descriptor.path);
      candidates.push({
        path: descriptor.path,
        baudRate: typeof descriptor.baudRate === 'number' ? descriptor.baudRate : undefined,
        source: 'simulator',
        serialNumberHint: typeof descriptor.serialNumber === 'string' ? descriptor.serialNumber : undefined,
      });
    } catch {
      // Half-written, unreadable, or its pty is not there (unplugged): not a candidate now.
    }
  }
  return candidates;
}

/**
 * Every serial port that may be one of our devices: USB ports with product id 0xD101 and the
 * simulator's ptys. A source that fails (udevadm missing, so SerialPort.list() rejects) is
 * reported through onWarning and contributes nothing.
 */
export async function listSerialCandidates(sources: SerialCandidateSources = {}): Promise<SerialCandidate[]> {
  const candidates: SerialCandidate[] = [];
  try {
    const ports = await (sources.listPorts ?? systemListPorts)();
    for (const port of ports) {
      if (isProvisionerProductId(port.productId)) candidates.push({ path: port.path, source: 'usb', serialNumberHint: port.serialNumber });
    }
  } catch (error) {
    sources.onWarning?.(`Cannot list USB serial ports (${(error as Error).message}); is udev installed? Devices on USB are not listed.`);
  }
  try {
    for (const candidate of await simulatorCandidates(sources.simulatorDir ?? defaultSimulatorDir())) {
      if (!candidates.some((c) => c.path === candidate.path)) candidates.push(candidate);
    }
  } catch (error) {
    sources.onWarning?.(`Cannot read the simulator directory (${(error as Error).message}).`);
  }
  return candidates;
}
