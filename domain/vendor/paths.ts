/**
 * The vendor's settings resources (vendor spec §4 for the FRC family, §5 for the EPC), as CoAP
 * Uri-Path strings without a leading slash. A `?n` suffix is a Uri-Query selecting slot n of an
 * indexed FRC resource. They live in domain/ because running-values.ts names them; protocol/vendor
 * re-exports them beside the protocol's own paths (fs/…, fl/…).
 */

/** FRC family (SRC Pro, NSC), text values unless noted. */
export const FRC_PATH = {
  serialNumber: 'cfg/setup/serialNumber',
  fwVersion: 'cfg/setup/fwVersion',
  cpuTemp: 'cfg/setup/cpuTemp',
  deviceTemp: 'cfg/setup/deviceTemp',
  systemReset: 'cfg/setup/systemReset',
  deviceMac: 'cfg/setup/deviceMac',
  /** Indexed 0..9 by Uri-Query. */
  pairedDeviceMac: 'cfg/setup/pairedDeviceMac',
  /** Indexed 0..9 by Uri-Query. */
  pairedDeviceName: 'cfg/setup/pairedDeviceName',
  pairedMacIndex: 'cfg/setup/pairedMacIndex',
  radioMode: 'cfg/setup/radioMode',
  ismMode: 'cfg/setup/ism/mode',
  ismOwnAddr: 'cfg/setup/ism/ownAddr',
  /** Indexed 0..9 by Uri-Query. */
  ismPairAddr: 'cfg/setup/ism/pairAddr',
  /** GET answers a raw little-endian integer labelled CBOR; POST takes CBOR {radio_channel}. */
  radioChannel: 'cfg/setup/radioChannel',
  /** GET answers a raw little-endian integer labelled CBOR; POST takes CBOR {radio_power}. */
  radioPower: 'cfg/setup/radioPower',
  joystickPeriod: 'st/joystick/period',
  keypadPeriod: 'st/keypad/period',
  mode: 'st/mode',
} as const;

/** Slots of the FRC's machine-select table (pairedDeviceMac, pairedDeviceName, ism/pairAddr). */
export const FRC_SLOTS = 10;

/** An indexed FRC resource's slot, as the path plus Uri-Query. */
export const slotPath = (path: string, slot: number): string => `${path}?${slot}`;

/** EPC leaves: GET the leaf, POST `{leaf: value}` to the parent (or the bare value to the leaf). */
export const EPC_PATH = {
  timeoutMs: 'cfg/sf/smcu/global/timeoutMs',
  txRateMs: 'cfg/sf/smcu/global/txRateMs',
  deviceId: 'cfg/sf/smcu/global/deviceId',
  smcuFirmware: 'cfg/sf/smcu/global/firmware',
  smcuFirmwareCrcs: 'cfg/sf/smcu/global/firmwareCrcs',
  smcuOptionBytes: 'cfg/sf/smcu/global/optionBytes',
  ble0PairMac: 'cfg/net/ble0/pairMac',
  ble0IsServer: 'cfg/net/ble0/isServer',
  eth0Mac: 'cfg/net/eth0/mac',
  canService: 'cfg/net/can0/canService',
  canBitrate: 'cfg/net/can0/canBitrate',
  mcGroup: 'cfg/coapd/mcGroup',
  ismSerial: 'cfg/radio/ism0/ismSerial',
  ismRadioId: 'cfg/radio/ism0/radioId',
  ismPeerId: 'cfg/radio/ism0/peerId',
  ismResetPin: 'cfg/radio/ism0/resetPin',
  ismPort: 'cfg/radio/ism0/ismPort',
  ismConnectionMode: 'cfg/radio/ism0/connectionMode',
  ismPower: 'cfg/radio/ism0/power',
  ismRfChannel: 'cfg/radio/ism0/rfChannel',
  wlan0Ip: 'cfg/net/wlan0/ip',
  wlan0Dhcp: 'cfg/net/wlan0/dhcp',
  wlan0Gateway: 'cfg/net/wlan0/gateway',
  wlan0Dns: 'cfg/net/wlan0/dns',
  wlan0IsClient: 'cfg/net/wlan0/isClient',
  wlan0IsServer: 'cfg/net/wlan0/isServer',
  wlan0ClientSsid: 'cfg/net/wlan0/clientSSID',
  wlan0ClientPsk: 'cfg/net/wlan0/clientPsk',
  wlan0ServerSsid: 'cfg/net/wlan0/serverSSID',
  wlan0ServerPsk: 'cfg/net/wlan0/serverPsk',
  fwVersion: 'info/fw/version',
  serialCpu: 'info/serial/cpu',
  serialSe: 'info/serial/se',
  macBt0: 'info/mac/bt0',
  macWlan0: 'info/mac/wlan0',
  systemReset: 'cfg/setup/systemReset',
  serialNumber: 'cfg/setup/serialNumber',
  setupFwVersion: 'cfg/setup/fwVersion',
} as const;

/** EPC ports of eth0 (`cfg/net/eth0/port{0,1}/…`). */
export const epcEthPath = (port: 0 | 1, leaf: 'ip' | 'dhcp' | 'gateway' | 'dns'): string =>
  `cfg/net/eth0/port${port}/${leaf}`;
/** EPC care slots 0..4 (`cfg/sf/smcu/care{n}/…`). */
export const epcCarePath = (slot: number, leaf: 'deviceId' | 'smcu0key' | 'smcu1key'): string =>
  `cfg/sf/smcu/care${slot}/${leaf}`;
/** EPC peer slots 0..4 (`cfg/peers/peer{n}/…`). */
export const epcPeerPath = (slot: number, leaf: 'addr' | 'name' | 'obsv'): string => `cfg/peers/peer${slot}/${leaf}`;
export const EPC_CARE_SLOTS = 5;
export const EPC_PEER_SLOTS = 5;
/** A care slot's deviceId that means "no one" (vendor spec §5.4). */
export const EPC_CARE_DELETED = 65535;
/** Where the EPC's local radio bridges listen (vendor spec §5.3): its BLE and ISM peers' addresses. */
export const EPC_BLE_PEER_ADDR = 'coap://127.0.0.1:12000';
export const EPC_ISM_PEER_ADDR = 'coap://127.0.0.1:12345';
/** The safety MCU image set of an input or an output device (vendor spec §5.4). */
export const smcuImagePath = (direction: 'In' | 'Out', file: 'ER_RO' | 'ER_FS' | 'ER_OPT_BYTES'): string =>
  `/usr/lib/smcu/${direction === 'In' ? 'dev_in' : 'dev_out'}/${file}`;
