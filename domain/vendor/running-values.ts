import { netmaskPrefixLength } from '../ipv4';
import {
  EPC_BLE_PEER_ADDR,
  EPC_CARE_DELETED,
  EPC_CARE_SLOTS,
  EPC_ISM_PEER_ADDR,
  EPC_PATH,
  EPC_PEER_SLOTS,
  epcCarePath,
  epcEthPath,
  epcPeerPath,
  FRC_PATH,
  FRC_SLOTS,
  slotPath,
  smcuImagePath,
} from './paths';
import { ownInterface, peerInterface, type Scm2Config, type Scm2Peer } from './scm2';

/** The vendor's two device families: FRC (SRC Pro, NSC; USB serial) and EPC (UDP). */
export type VendorFamily = 'FRC' | 'EPC';
export const VENDOR_FAMILIES: readonly VendorFamily[] = ['FRC', 'EPC'];

export type RunningValueType = string | number | boolean;

/** One setting a vendor device runs, as its cfg/… resource exposes it. */
export interface RunningValue {
  /** Uri-Path without a leading slash, plus `?n` for a slot of an indexed FRC resource. */
  path: string;
  /** Plain words for a technician: what the setting is. */
  label: string;
  expected: RunningValueType;
  unit?: string;
}

/** A valid scm2 that this family cannot run (an FRC told to use Ethernet, six care ids on an EPC). */
export class RunningValuesError extends Error {
  constructor(family: VendorFamily, problem: string) {
    super(`This configuration cannot run on an ${family}-family device: ${problem}.`);
    this.name = 'RunningValuesError';
  }
}

/**
 * The values a vendor device of `family` runs once it has applied `config`, as its cfg/… resources
 * expose them. This is the ONE mapping from scm2 to resources: the simulator serves exactly these
 * values after applying a file, and the host reads these paths back and compares them value by
 * value (runningValueMatches). Where the vendor's own scripts take shortcuts (the FRC always TDMA
 * base, the network id taken from the radio id, fixed safety ids) we map the file's own values;
 * docs/vendor-devices.md lists each choice.
 */
export function runningValues(config: Scm2Config, family: VendorFamily): RunningValue[] {
  return family === 'FRC' ? frcRunningValues(config) : epcRunningValues(config);
}

/** Equal as the device would mean it: numbers and booleans may come back as text ("500", "true"). */
export function runningValueMatches(expected: RunningValueType, actual: RunningValueType): boolean {
  if (typeof expected === typeof actual) return expected === actual;
  return String(expected) === String(actual).trim();
}

/** Peers in the order of their keys ("1", "2", … as FORT Manager numbers them). */
export function orderedPeers(config: Scm2Config): Array<[string, Scm2Peer]> {
  return Object.entries(config.NET.peers).sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b));
}

const NO_MAC = '00:00:00:00:00:00';
const NO_ISM_ADDRESS = '0,0,0';

function frcRunningValues(config: Scm2Config): RunningValue[] {
  const own = ownInterface(config);
  if (own === 'eth0' || own === 'wlan0') throw new RunningValuesError('FRC', `it has no ${own}; give it blue0 or ism0`);
  const peers = orderedPeers(config);
  if (peers.length > FRC_SLOTS)
    throw new RunningValuesError('FRC', `its machine-select table holds ${FRC_SLOTS} peers, not ${peers.length}`);
  for (const [key, peer] of peers) {
    if (peerInterface(peer) !== own)
      throw new RunningValuesError(
        'FRC',
        `peer ${key} (${peer.name}) is reached by ${peerInterface(peer)}, but this device's radio is ${own}`,
      );
  }
  const values: RunningValue[] = [];
  const ism = config.NET.ism0;
  if (ism !== null) {
    values.push(
      {
        path: FRC_PATH.ismMode,
        label: 'ISM radio mode (T: TDMA base, t: TDMA remote)',
        expected: ism.connMode === 'Base' || ism.connMode === 'TDMA-Base' ? 'T' : 't',
      },
      {
        path: FRC_PATH.ismOwnAddr,
        label: 'ISM own address (network, device, input)',
        expected: `${ism.network_id},${ism.radio_id},0`,
      },
      { path: FRC_PATH.radioChannel, label: 'ISM radio channel', expected: ism.txChannel },
      { path: FRC_PATH.radioPower, label: 'ISM radio transmit power', expected: ism.txpwr, unit: 'dBm' },
    );
  } else {
    // blue0: the FRC is the BLE peripheral its machines connect to (the vendor's web flow).
    values.push({ path: FRC_PATH.radioMode, label: 'BLE radio mode (S: peripheral)', expected: 'S' });
  }
  for (let slot = 0; slot < FRC_SLOTS; slot++) {
    const peer = peers[slot]?.[1];
    values.push({
      path: slotPath(FRC_PATH.pairedDeviceName, slot),
      label: `Machine ${slot} name`,
      expected: peer?.name ?? '',
    });
    if (ism !== null) {
      values.push({
        path: slotPath(FRC_PATH.ismPairAddr, slot),
        label: `Machine ${slot} ISM address`,
        expected: peer ? `${ism.network_id},${peer.ism0},0` : NO_ISM_ADDRESS,
      });
    } else {
      values.push({
        path: slotPath(FRC_PATH.pairedDeviceMac, slot),
        label: `Machine ${slot} BLE MAC address`,
        expected: peer?.blue0?.mac.toLowerCase() ?? NO_MAC,
      });
    }
  }
  return values;
}

function epcRunningValues(config: Scm2Config): RunningValue[] {
  const { SAFE, NET } = config;
  if (SAFE.careId.length > EPC_CARE_SLOTS)
    throw new RunningValuesError('EPC', `it has ${EPC_CARE_SLOTS} care slots, not ${SAFE.careId.length}`);
  const peers = orderedPeers(config);
  if (peers.length > EPC_PEER_SLOTS)
    throw new RunningValuesError('EPC', `it has ${EPC_PEER_SLOTS} peer slots, not ${peers.length}`);
  const values: RunningValue[] = [
    { path: EPC_PATH.timeoutMs, label: 'Safety communication timeout', expected: SAFE.safetyTimeout, unit: 'ms' },
    { path: EPC_PATH.txRateMs, label: 'Safety transmit period', expected: SAFE.safetyRate, unit: 'ms' },
    { path: EPC_PATH.deviceId, label: 'Safety device id', expected: SAFE.deviceId },
    {
      path: EPC_PATH.smcuFirmware,
      label: `Safety I/O direction (${SAFE.ioDirection === 'In' ? 'input' : 'output'} image set)`,
      expected: smcuImagePath(SAFE.ioDirection, 'ER_RO'),
    },
  ];
  for (let slot = 0; slot < EPC_CARE_SLOTS; slot++) {
    values.push({
      path: epcCarePath(slot, 'deviceId'),
      label: `Care slot ${slot} safety id (65535: none)`,
      expected: SAFE.careId[slot] ?? EPC_CARE_DELETED,
    });
  }
  if (NET.blue0 !== null) {
    const macPeer = peers.find(([, p]) => p.blue0 !== null)?.[1];
    values.push(
      { path: EPC_PATH.ble0IsServer, label: 'BLE advertises as a peripheral', expected: false },
      {
        path: EPC_PATH.ble0PairMac,
        label: 'BLE paired MAC address',
        expected: macPeer?.blue0?.mac.toLowerCase() ?? NO_MAC,
      },
    );
  } else if (NET.ism0 !== null) {
    const ism = NET.ism0;
    const ismPeer = peers.find(([, p]) => p.ism0 !== null)?.[1];
    for (const [what, id] of [
      ['network id', ism.network_id],
      ['radio id', ism.radio_id],
      ['peer radio id', ismPeer?.ism0 ?? 1],
    ] as const) {
      if (id > 255) throw new RunningValuesError('EPC', `its ISM ${what} is one byte (at most 255), not ${id}`);
    }
    values.push(
      { path: EPC_PATH.ismConnectionMode, label: 'ISM connection mode', expected: EPC_CONNECTION_MODE[ism.connMode] },
      { path: EPC_PATH.ismPower, label: 'ISM transmit power', expected: ism.txpwr, unit: 'dBm' },
      { path: EPC_PATH.ismRfChannel, label: 'ISM radio channel', expected: ism.txChannel },
      { path: EPC_PATH.ismRadioId, label: 'ISM own radio id', expected: epcRadioId(ism.network_id, ism.radio_id) },
      {
        path: EPC_PATH.ismPeerId,
        label: 'ISM peer radio id',
        expected: ismPeer ? epcRadioId(ism.network_id, ismPeer.ism0!) : '000000000000',
      },
    );
  } else if (NET.eth0 !== null) {
    const eth = NET.eth0;
    values.push(
      {
        path: epcEthPath(0, 'ip'),
        label: 'Ethernet port 0 address',
        expected: `${eth.ip4}/${netmaskPrefixLength(eth.netmask4)}`,
      },
      { path: epcEthPath(0, 'dhcp'), label: 'Ethernet port 0 DHCP', expected: eth.isDHCP },
      { path: epcEthPath(0, 'gateway'), label: 'Ethernet port 0 gateway', expected: eth.gateway4 ?? '' },
      { path: epcEthPath(0, 'dns'), label: 'Ethernet port 0 name server', expected: eth.nameservers4[0] ?? '' },
    );
  } else if (NET.wlan0 !== null) {
    const wlan = NET.wlan0;
    // The pass phrase is written but not read back: a device need not tell it to whoever asks.
    values.push(
      { path: EPC_PATH.wlan0Ip, label: 'Wi-Fi address', expected: `${wlan.ip4}/${netmaskPrefixLength(wlan.netmask4)}` },
      { path: EPC_PATH.wlan0Dhcp, label: 'Wi-Fi DHCP', expected: wlan.isDHCP },
      { path: EPC_PATH.wlan0Gateway, label: 'Wi-Fi gateway', expected: wlan.gateway4 ?? '' },
      { path: EPC_PATH.wlan0Dns, label: 'Wi-Fi name server', expected: wlan.nameservers4[0] ?? '' },
      { path: EPC_PATH.wlan0IsClient, label: 'Wi-Fi joins a network', expected: wlan.wpa_supplicantEn },
      { path: EPC_PATH.wlan0IsServer, label: 'Wi-Fi runs an access point', expected: wlan.hostapdEn },
      { path: EPC_PATH.wlan0ClientSsid, label: 'Wi-Fi network name', expected: wlan.ssid },
    );
  }
  values.push({
    path: EPC_PATH.canService,
    label: 'CAN service',
    expected: NET.can0 === null || NET.can0.mode === 'Disabled' ? 'none' : NET.can0.mode,
  });
  if (NET.can0 !== null)
    values.push({ path: EPC_PATH.canBitrate, label: 'CAN bit rate', expected: NET.can0.bitrate * 1000, unit: 'bit/s' });
  for (let slot = 0; slot < EPC_PEER_SLOTS; slot++) {
    const peer = peers[slot]?.[1];
    values.push(
      { path: epcPeerPath(slot, 'name'), label: `Peer ${slot} name`, expected: peer?.name ?? '' },
      { path: epcPeerPath(slot, 'addr'), label: `Peer ${slot} address`, expected: peer ? epcPeerAddress(peer) : '' },
    );
  }
  return values;
}

/** scm2's connMode in the EPC's words; 'Remote' has none of its own and is a TDMA remote. */
const EPC_CONNECTION_MODE = {
  Base: 'base',
  'TDMA-Base': 'tdmabase',
  'TDMA-Remote': 'tdmaremote',
  Remote: 'tdmaremote',
} as const;

/** The EPC's 6-byte ISM id as 12 hex digits: network, 00, radio, 00, input 01, 00 (vendor spec §5.5). */
export function epcRadioId(networkId: number, radioId: number): string {
  const byte = (n: number) => n.toString(16).padStart(2, '0');
  return `${byte(networkId)}00${byte(radioId)}000100`;
}

function epcPeerAddress(peer: Scm2Peer): string {
  if (peer.eth0 !== null) return `coap://${peer.eth0.ip4}`;
  if (peer.wlan0 !== null) return `coap://${peer.wlan0.ip4}`;
  return peer.blue0 !== null ? EPC_BLE_PEER_ADDR : EPC_ISM_PEER_ADDR;
}
