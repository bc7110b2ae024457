import { commInterfaceFlags } from '../comm-interface';
import type { CommInterfaceFlag } from '../enums';
import type { ConfigFileContent } from '../files/config-file-content';
import type { Scm2Config, Scm2Interface, Scm2Peer } from './scm2';

/**
 * The vendor's view (scm2, vendor spec §8.3) of one device's configuration file content, as the
 * service builds that content (server/configurations/model.ts). It travels in the same signed
 * `config-data` as our content, so a vendor device and one of ours are given the same
 * configuration. docs/vendor-devices.md, "Configuration files", lists what maps and what does not.
 *
 * Total: any content gives an object of the scm2 shape. Values our model has no source for, or
 * that lie outside the vendor's ranges (a 5000 ms timeout, several interfaces, no interface), are
 * carried as they are or left empty, so that parseScm2 (scm2.ts) names them to whoever is about to
 * send the file to a vendor device; our own devices read our content and never look at scm2.
 */
export type Scm2Source = Pick<ConfigFileContent, 'serialNumber' | 'deviceType' | 'device' | 'peers' | 'safety'>;

/** Which of our interfaces becomes the one interface scm2 allows, first that the device has: the safety radios before IP. */
const INTERFACE_PRIORITY: readonly (readonly [CommInterfaceFlag, Scm2Interface])[] = [
  ['ISM', 'ism0'],
  ['BLE', 'blue0'],
  ['Ethernet', 'eth0'],
  ['Wifi', 'wlan0'],
];

/** Our three ISM power levels on the vendor's dBm list (§9): the lowest non-negative, a middle one, the highest. */
export const ISM_POWER_DBM: Readonly<Record<string, number>> = { Low: 0, Medium: 14, High: 27 };

/** BLE pairing is made on the device, not by our configuration: the vendor's "empty slot" MAC (§4). */
export const UNPAIRED_MAC = '00:00:00:00:00:00';

/** Our device types by the vendor's family names (peer deviceType). */
const VENDOR_FAMILY: Readonly<Record<string, Scm2Peer['deviceType']>> = {
  SRCP: 'FRC',
  WESP: 'FRC',
  EPC: 'EPC',
  NSCP: 'NSC',
};

/** Safety rate the vendor's web flow writes (50 ms), or 25 ms when the timeout is under 500 ms (rate ≤ timeout / 10). */
const safetyRateFor = (timeoutMs: number): 25 | 50 => (timeoutMs >= 500 ? 50 : 25);
const DEFAULT_SAFETY_TIMEOUT_MS = 500;

type Settings = Record<string, unknown>;

const text = (settings: Settings, key: string): string | undefined =>
  typeof settings[key] === 'string' ? (settings[key] as string) : undefined;
const number = (settings: Settings, key: string): number | undefined =>
  typeof settings[key] === 'number' ? (settings[key] as number) : undefined;
const texts = (settings: Settings, key: string): string[] => {
  const value = settings[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** A sender's safety inputs are read (the vendor's input device); a receiver drives outputs. */
function isSender(role: string | undefined): boolean {
  return role === 'Sender' || role === 'EStopSender';
}

/**
 * Each device's number in its configuration: 1 + its place among the serial numbers of the
 * configuration (own and peers), sorted. Every file of one configuration computes the same
 * numbers, so a device's SAFE.deviceId is the deviceId its peers' files give it. Used as the safety
 * id and the ISM radio id, which our model does not have.
 */
function configurationNumbers(source: Scm2Source): Map<string, number> {
  const serials = [source.serialNumber, ...source.peers.map((peer) => peer.serialNumber)].filter(
    (s): s is string => typeof s === 'string',
  );
  const sorted = [...new Set(serials)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(sorted.map((serial, index) => [serial, index + 1]));
}

/** Milliseconds of our timeoutConfiguration ('500ms'). */
function timeoutMs(safety: Settings): number {
  const match = /^(\d+)ms$/.exec(text(safety, 'timeoutConfiguration') ?? '');
  return match ? Number(match[1]) : DEFAULT_SAFETY_TIMEOUT_MS;
}

/**
 * A vendor name (1–8 of [0-9A-Za-z ]) for a serial number: as it is when it fits, else with its
 * type letters cut from their end ('NSCP000101' → 'NS000101', 'EPC000101' → 'EP000101'), so that
 * devices whose numbers differ only in their type (SRCP000101, NSCP000101) keep apart.
 */
export function vendorNameOf(serialNumber: string): string {
  const cleaned = serialNumber.replace(/[^0-9A-Za-z]/g, '');
  if (cleaned.length <= 8) return cleaned;
  const [, letters = '', rest = ''] = /^([A-Za-z]*)(.*)$/.exec(cleaned) ?? [];
  if (rest.length >= 8) return rest.slice(-8);
  return letters.slice(0, 8 - rest.length) + rest;
}

/** 'BITRATE_250000' → 250 (kbit/s). */
function kbitOf(canKBitrate: string | undefined): number | undefined {
  const match = /^BITRATE_(\d+)$/.exec(canKBitrate ?? '');
  return match ? Number(match[1]) / 1000 : undefined;
}

function chosenInterface(commInterface: string | undefined, preferred?: Scm2Interface): Scm2Interface | undefined {
  const flags = commInterfaceFlags(commInterface);
  const available = INTERFACE_PRIORITY.filter(([flag]) => flags.includes(flag)).map(([, iface]) => iface);
  return preferred !== undefined && available.includes(preferred) ? preferred : available[0];
}

function ipSettings(device: Settings, prefix: 'eth' | 'wifi') {
  return {
    ip4: text(device, 'ipAddress') ?? '',
    netmask4: text(device, `${prefix}Netmask`) ?? '',
    gateway4: text(device, `${prefix}Gateway`) ?? null,
    nameservers4: texts(device, `${prefix}Nameservers`),
    // Our devices take fixed addresses; the vendor's flag is about the device serving DHCP.
    isDHCP: false,
  };
}

function ownNetwork(
  source: Scm2Source,
  own: number,
  iface: Scm2Interface | undefined,
): Pick<Scm2Config['NET'], Scm2Interface> {
  const { device, safety } = source;
  const net: Pick<Scm2Config['NET'], Scm2Interface> = { blue0: null, ism0: null, eth0: null, wlan0: null };
  if (iface === 'blue0') net.blue0 = { mac: UNPAIRED_MAC };
  if (iface === 'ism0') {
    net.ism0 = {
      radio_id: own,
      network_id: number(safety, 'ismNetworkId') ?? 0,
      txpwr: ISM_POWER_DBM[text(safety, 'ismTxPower') ?? ''] ?? 0,
      txChannel: number(safety, 'ismTxChannel') ?? 0,
      // The vendor's web flow writes every FRC (a sender) as TDMA base.
      connMode: isSender(text(device, 'deviceConfigurationType')) ? 'TDMA-Base' : 'TDMA-Remote',
    };
  }
  if (iface === 'eth0') net.eth0 = ipSettings(device, 'eth');
  if (iface === 'wlan0') {
    const password = text(device, 'wifiPassword');
    // Our Wifi devices join a network (wpa_supplicant); they never serve one (hostapd).
    net.wlan0 = {
      ...ipSettings(device, 'wifi'),
      ssid: text(device, 'wifiSsid') ?? '',
      ssidPwd: password ?? '',
      wpa_supplicantEn: true,
      hostapdEn: false,
    };
  }
  return net;
}

function can(safety: Settings): Scm2Config['NET']['can0'] {
  const bitrate = kbitOf(text(safety, 'canKBitrate'));
  if (bitrate === undefined) return null;
  const mode = text(safety, 'canMode');
  return { bitrate, mode: mode === 'canopen' || mode === 'j1939' ? mode : 'Disabled' };
}

function peerOf(peer: Settings, numbers: Map<string, number>, ownInterface: Scm2Interface | undefined): Scm2Peer {
  const serial = text(peer, 'serialNumber') ?? '';
  const id = numbers.get(serial) ?? 0;
  const iface = chosenInterface(text(peer, 'commInterface'), ownInterface);
  const address = text(peer, 'ipAddress') ?? '';
  return {
    name: vendorNameOf(serial),
    deviceId: id,
    deviceType: VENDOR_FAMILY[text(peer, 'deviceType') ?? ''] ?? 'FRC',
    blue0: iface === 'blue0' ? { mac: UNPAIRED_MAC } : null,
    ism0: iface === 'ism0' ? id : null,
    eth0: iface === 'eth0' ? { ip4: address } : null,
    wlan0: iface === 'wlan0' ? { ip4: address } : null,
  };
}

export function scm2FromConfiguration(source: Scm2Source): Scm2Config {
  const { device, safety, peers } = source;
  const numbers = configurationNumbers(source);
  const own = numbers.get(source.serialNumber) ?? 0;
  const role = text(device, 'deviceConfigurationType');
  const timeout = timeoutMs(safety);
  const iface = chosenInterface(text(device, 'commInterface'));
  // A device listens for the other side of the safety link: a receiver for the senders, a sender
  // for the receivers. A peer (or this device) without a role is counted on both sides.
  const cares = peers.filter((peer) => {
    const theirs = text(peer, 'deviceConfigurationType');
    return role === undefined || theirs === undefined || isSender(role) !== isSender(theirs);
  });
  return {
    SAFE: {
      ioDirection: role !== undefined && isSender(role) ? 'In' : 'Out',
      safetyTimeout: timeout,
      safetyRate: safetyRateFor(timeout),
      deviceId: own,
      careId: cares.map((peer) => numbers.get(text(peer, 'serialNumber') ?? '') ?? 0),
    },
    NET: {
      ...ownNetwork(source, own, iface),
      can0: can(safety),
      peers: Object.fromEntries(peers.map((peer, index) => [String(index), peerOf(peer, numbers, iface)])),
    },
  };
}
