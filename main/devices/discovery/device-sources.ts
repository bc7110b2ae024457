import type { Peripheral } from '@abandonware/noble';
import { normalizeBleId, type BleCentral } from '../links/ble-central';
import { formatLinkSpec, parseLinkSpec, type LinkFactoryDeps } from '../links/link-spec';
import { discoverByMulticast, multicastDiscoveryFromEnv, type MulticastDiscoveryOptions } from './multicast';
import { listSerialCandidates, type SerialCandidateSources } from './serial-candidates';

/**
 * Where devices are looked for, the same for a single look (findDevices: the CLI) and for the live
 * list (the app), and how their links are opened to ask them GET /info.
 */
export interface DeviceSources {
  /** Serial ports worth asking: USB product id 0xD101 and the port globs; on unless false. */
  serial?: Omit<SerialCandidateSources, 'onWarning'> | false;
  /** Peripherals advertising the protocol's BLE service; off unless given. */
  ble?: { central: () => Promise<BleCentral> };
  /**
   * IP devices that answer a CoAP multicast GET /.well-known/core (multicast.ts); off if false.
   * Default multicastDiscoveryFromEnv(process.env): on, loopback, port 5683.
   */
  multicast?: MulticastDiscoveryOptions | false;
  /** How links are opened (tests: a mock serial port opener). BLE links go through `ble.central` unless this names another. */
  linkDeps?: LinkFactoryDeps;
}

export function linkDepsOf(sources: DeviceSources): LinkFactoryDeps {
  return { ...(sources.ble ? { bleCentral: sources.ble.central } : {}), ...sources.linkDeps };
}

/** The links of the IP devices that answer the multicast request now; none when discovery is off or cannot send. */
export async function multicastLinks(
  sources: DeviceSources,
  signal?: AbortSignal,
  onWarning?: (message: string) => void,
): Promise<string[]> {
  try {
    const options = sources.multicast ?? multicastDiscoveryFromEnv(process.env);
    return options === false ? [] : await discoverByMulticast(options, signal);
  } catch (error) {
    onWarning?.(`IP devices are not discovered: ${(error as Error).message}`);
    return [];
  }
}

/** The links of the serial ports worth asking now. */
export async function serialLinks(
  serial: Omit<SerialCandidateSources, 'onWarning'>,
  onWarning?: (message: string) => void,
): Promise<string[]> {
  const candidates = await listSerialCandidates({ ...serial, ...(onWarning ? { onWarning } : {}) });
  return candidates.map((c) =>
    formatLinkSpec({ kind: 'serial', path: c.path, ...(c.baudRate !== undefined ? { baudRate: c.baudRate } : {}) }),
  );
}

/** The link an advertising peripheral is reached by: its address where the platform tells it, else noble's id. */
export function bleLinkOf(peripheral: Peripheral): string {
  return formatLinkSpec({
    kind: 'ble',
    id: normalizeBleId(peripheral.address && peripheral.address !== 'unknown' ? peripheral.address : peripheral.id),
  });
}

/**
 * What a link reaches, however it is written: a serial port by its path (the baud rate is a
 * property of the port), a UDP device by host and port, a BLE device by its normalized id.
 */
export function portOf(link: string): string {
  const spec = parseLinkSpec(link);
  switch (spec.kind) {
    case 'serial':
      return formatLinkSpec({ kind: 'serial', path: spec.path });
    case 'udp':
      return formatLinkSpec(spec);
    case 'ble':
      return formatLinkSpec({ kind: 'ble', id: normalizeBleId(spec.id) });
  }
}
