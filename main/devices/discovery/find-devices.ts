import type { BleCentral } from '../links/ble-central';
import { bleLinkOf, linkDepsOf, multicastLinks, portOf, serialLinks, type DeviceSources } from './device-sources';
import { probeLink, type ProbeResult } from './probe';

export interface FindOptions {
  /** Links to ask besides what the sources list (IP devices the multicast request does not reach); reported as written here. */
  links?: readonly string[];
  /** How long the BLE scan listens. Default 2 s. */
  bleScanMs?: number;
  /** How long one link may take to answer GET /info. Default 4 s. */
  probeTimeoutMs?: number;
  signal?: AbortSignal;
  /** Told when a source fails (no udevadm) instead of failing the look. */
  onWarning?: (message: string) => void;
}

/**
 * One look at what is attached (the CLI's `device list`, serial numbers to look up): the serial
 * ports and BLE peripherals the sources list, the IP devices that answer the multicast request, and the given links, each asked GET /info, all at
 * once (16 serial ports one after the other would take a while). Devices come sorted by serial
 * number; links on which nothing answered, by link, with the reason. The app's LiveDeviceList
 * keeps looking with the same sources.
 */
export async function findDevices(sources: DeviceSources, options: FindOptions = {}): Promise<ProbeResult[]> {
  const [serial, ble, ip] = await Promise.all([
    sources.serial === false ? [] : serialLinks(sources.serial ?? {}, options.onWarning),
    sources.ble ? scanBle(sources.ble.central, options.bleScanMs ?? 2000, options.signal) : [],
    multicastLinks(sources, options.signal, options.onWarning),
  ]);
  // One probe per port: two at once on one port would garble both. A given link keeps its spelling,
  // which is what the caller looks for in the answer.
  const byPort = new Map<string, string>();
  for (const link of [...serial, ...ble, ...ip, ...(options.links ?? [])]) byPort.set(portOf(link), link);
  const linkDeps = linkDepsOf(sources);
  const found = await Promise.all(
    [...byPort.values()].map((link) =>
      probeLink(link, {
        linkDeps,
        timeoutMs: options.probeTimeoutMs ?? 4000,
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    ),
  );
  // A node that answered the multicast request but not GET /info is not one of our devices: not listed.
  const asked = new Set([...serial, ...ble, ...(options.links ?? [])].map(portOf));
  return found.filter((result) => result.info !== null || asked.has(portOf(result.link))).sort(byListingOrder);
}

/** Devices by serial number, then the links on which nothing answered, by link. */
function byListingOrder(a: ProbeResult, b: ProbeResult): number {
  if (a.info && b.info) return a.info.serialNumber.localeCompare(b.info.serialNumber) || a.link.localeCompare(b.link);
  if (a.info || b.info) return a.info ? -1 : 1;
  return a.link.localeCompare(b.link);
}

/** The BLE links heard during `scanMs`; none when the computer has no Bluetooth. */
async function scanBle(
  getCentral: () => Promise<BleCentral>,
  scanMs: number,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const links = new Set<string>();
  let stop: () => Promise<void>;
  try {
    const central = await getCentral();
    stop = await central.scan((peripheral) => links.add(bleLinkOf(peripheral)), signal);
  } catch {
    return [];
  }
  await new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(resolve, scanMs);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
  await stop();
  return [...links];
}
