import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatLinkSpec, type LinkSpec } from '../../devices';
import { USB_PRODUCT_ID } from '../../devices/protocol/constants';
import type { LinkKind } from '../../../preload/contract';

/** A place where a device may be attached; identification (GET /info) says who is there. */
export interface DiscoveredLink {
  /** `formatLinkSpec(spec)`: stable while the device stays attached there. */
  linkId: string;
  spec: LinkSpec;
  kind: LinkKind;
  address: string;
}

/**
 * Finds links to devices. The core polls it; an implementation answers with what is there now.
 * (The devices layer may bring a richer discovery; this interface is what the bench needs.)
 */
export interface LinkDiscovery {
  scan(): Promise<DiscoveredLink[]>;
}

export function discoveredLink(spec: LinkSpec): DiscoveredLink {
  const address = spec.kind === 'serial' ? spec.path : spec.kind === 'udp' ? `${spec.host}:${spec.port}` : spec.id;
  return { linkId: formatLinkSpec(spec), spec, kind: spec.kind, address };
}

/**
 * Serial devices the simulator announces: SerialPort.list() never lists ptys, so simulated devices
 * write a descriptor JSON into a directory. A descriptor of a process that died, or whose pty is
 * gone (cable pulled), is skipped.
 */
export function simulatorDescriptorDiscovery(dir: string): LinkDiscovery {
  return {
    async scan() {
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith('.json'));
      } catch {
        return [];
      }
      const found: DiscoveredLink[] = [];
      for (const name of names) {
        try {
          const descriptor = JSON.parse(await readFile(join(dir, name), 'utf8')) as { link?: string; path?: string; pid?: number; productId?: string };
          if (descriptor.link !== 'serial' || typeof descriptor.path !== 'string') continue;
          if (typeof descriptor.pid === 'number' && !processAlive(descriptor.pid)) continue;
          await stat(descriptor.path);
          found.push(discoveredLink({ kind: 'serial', path: descriptor.path }));
        } catch {
          // Half-written, stale or unplugged: not attached now.
        }
      }
      return found;
    },
  };
}

/** Real USB serial devices of the vendor (product id 0xD101), through serialport's list (needs udev on Linux). */
export function usbSerialDiscovery(): LinkDiscovery {
  const productId = USB_PRODUCT_ID.toString(16).toLowerCase();
  return {
    async scan() {
      try {
        const { SerialPort } = await import('serialport');
        const ports = await SerialPort.list();
        return ports.filter((p) => p.productId?.toLowerCase() === productId).map((p) => discoveredLink({ kind: 'serial', path: p.path }));
      } catch {
        // No native binding or no udev here: no USB devices to offer, not an error of the app.
        return [];
      }
    },
  };
}

/** Links given explicitly (UDP addresses, BLE ids, a bench started by web mode). */
export function staticDiscovery(specs: () => readonly LinkSpec[]): LinkDiscovery {
  return { scan: async () => specs().map(discoveredLink) };
}

export function combinedDiscovery(parts: readonly LinkDiscovery[]): LinkDiscovery {
  return {
    async scan() {
      const all = (await Promise.all(parts.map((p) => p.scan()))).flat();
      const seen = new Set<string>();
      return all.filter((l) => (seen.has(l.linkId) ? false : (seen.add(l.linkId), true)));
    },
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
