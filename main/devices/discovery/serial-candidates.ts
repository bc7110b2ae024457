import { glob, stat } from 'node:fs/promises';
import { delimiter } from 'node:path';
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
  /** 'usb' from SerialPort.list() by product id, 'glob' from a port glob (ptys, RS-485 adapters). */
  source: 'usb' | 'glob';
  /** What the USB descriptor says, before the device confirms it. */
  serialNumberHint?: string;
}

export interface SerialCandidateSources {
  /** Default SerialPort.list(), loaded lazily. */
  listPorts?: () => Promise<PortListing[]>;
  /**
   * Ports to ask beyond USB product id 0xD101, as globs (`/dev/serial/by-id/usb-FTDI*`,
   * `/run/user/1000/provisioner-simulator/pty/*`), the way esptool's port filters add ports. Default:
   * portGlobsFromEnv(process.env).
   */
  portGlobs?: readonly string[];
  /** Told once per failing source (no udevadm, a glob that cannot be read) instead of failing the list. */
  onWarning?: (message: string) => void;
}

/** `$PROVISIONER_PORTS`: globs separated like PATH (':' here, ';' on Windows). */
export function portGlobsFromEnv(env: NodeJS.ProcessEnv): string[] {
  return (env.PROVISIONER_PORTS ?? '')
    .split(delimiter)
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern.length > 0);
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

/** The directory a port glob's matches appear in: its path up to the first wildcard. */
export function portGlobRoot(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const firstWild = parts.findIndex((part) => /[*?[\]{}]/.test(part));
  const fixed = firstWild === -1 ? parts.slice(0, -1) : parts.slice(0, firstWild);
  return fixed.join('/') || '/';
}

/**
 * The paths a port glob matches now, sorted. Only what is there and is not a directory: a pty
 * whose simulator (or an adapter that) went away leaves no path, or a dangling link, behind.
 */
export async function portsMatching(pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const path of glob(pattern)) {
    try {
      if (!(await stat(path)).isDirectory()) found.push(path);
    } catch {
      // A dangling link (socat killed): not a port now.
    }
  }
  return found.sort();
}

/**
 * Every serial port that may be one of our devices: USB ports with product id 0xD101 and the
 * ports that the port globs match. A source that fails (udevadm missing, so SerialPort.list() rejects) is
 * reported through onWarning and contributes nothing.
 */
export async function listSerialCandidates(sources: SerialCandidateSources = {}): Promise<SerialCandidate[]> {
  const candidates: SerialCandidate[] = [];
  try {
    const ports = await (sources.listPorts ?? systemListPorts)();
    for (const port of ports) {
      if (isProvisionerProductId(port.productId))
        candidates.push({ path: port.path, source: 'usb', serialNumberHint: port.serialNumber });
    }
  } catch (error) {
    sources.onWarning?.(
      `Cannot list USB serial ports (${(error as Error).message}); is udev installed? Devices on USB are not listed.`,
    );
  }
  for (const pattern of sources.portGlobs ?? portGlobsFromEnv(process.env)) {
    try {
      for (const path of await portsMatching(pattern)) {
        if (!candidates.some((c) => c.path === path)) candidates.push({ path, source: 'glob' });
      }
    } catch (error) {
      sources.onWarning?.(`Cannot read the ports of ${pattern} (${(error as Error).message}).`);
    }
  }
  return candidates;
}
