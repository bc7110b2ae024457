import { isIpv4Address } from '../../domain/ipv4';
import { CAN_BITRATES, ISM_POWERS_DBM, SAFETY_ID_MAX, VENDOR_NAME } from '../../domain/vendor/scm2';
import {
  EPC_CARE_DELETED,
  EPC_CARE_SLOTS,
  EPC_PATH,
  EPC_PEER_SLOTS,
  epcCarePath,
  epcEthPath,
  epcPeerPath,
  FRC_PATH,
  FRC_SLOTS,
  slotPath,
  smcuImagePath,
} from '../../domain/vendor/paths';
import type { RunningValueType, VendorFamily } from '../../domain/vendor/running-values';
import { valueFormOf, type VendorValueForm } from '../../protocol/vendor';

/** A value a device refuses (4.00); the message says what it takes. */
export class SettingValueError extends Error {}

/**
 * One settings resource of a simulated vendor device: what it starts as, how it is read, and the
 * value rule of vendor spec §9 a POST must pass (`parse` returns the value as stored, or throws
 * SettingValueError). Read-only resources have no parse.
 */
export interface Setting {
  path: string;
  form: VendorValueForm;
  initial: RunningValueType;
  parse?: (input: unknown) => RunningValueType;
  /** The FRC's CBOR-map POST key (`{"radio_channel": n}`), camelCase → snake_case of the last segment. */
  cborKey?: string;
}

const fail = (message: string): never => {
  throw new SettingValueError(message);
};

function integer(min: number, max: number, what: string): (input: unknown) => number {
  return (input) => {
    const value = typeof input === 'string' && /^\s*-?\d+\s*$/.test(input) ? Number(input) : input;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(`${what} must be a whole number from ${min} to ${max}, not ${JSON.stringify(input)}`);
    return value as number;
  };
}

function oneOf<T extends RunningValueType>(values: readonly T[], what: string): (input: unknown) => T {
  return (input) => {
    const found = values.find(
      (v) => v === input || (typeof v === 'number' && typeof input === 'string' && String(v) === input.trim()),
    );
    if (found === undefined) fail(`${what} must be one of ${values.join(', ')}, not ${JSON.stringify(input)}`);
    return found as T;
  };
}

function text(test: (value: string) => boolean, what: string): (input: unknown) => string {
  return (input) => {
    if (typeof input !== 'string' || !test(input)) fail(`${what}, not ${JSON.stringify(input)}`);
    return input as string;
  };
}

function boolean(what: string): (input: unknown) => boolean {
  return (input) => {
    if (input === true || input === 'true') return true;
    if (input === false || input === 'false') return false;
    return fail(`${what} must be true or false (lower case), not ${JSON.stringify(input)}`);
  };
}

const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;
const mac = (what: string) => (input: unknown) =>
  text((v) => MAC.test(v), `${what} is six hex pairs separated by colons`)(input).toLowerCase();
const triple = (what: string) => (input: unknown) => {
  const value = text(
    (v) => /^\s*\d{1,5}\s*,\s*\d{1,5}\s*,\s*\d{1,5}\s*$/.test(v),
    `${what} is "network,device,input", each 0 to 65535`,
  )(input);
  const parts = value.split(',').map((p) => Number(p.trim()));
  if (parts.some((p) => p > 65535)) fail(`${what}: each part is 0 to 65535, not ${value}`);
  return parts.join(',');
};
const key32 = (what: string) => text((v) => /^0x[0-9A-Fa-f]{8}$/.test(v), `${what} is 0x and 8 hex digits`);
const ipv4OrEmpty = (what: string) =>
  text((v) => v === '' || isIpv4Address(v), `${what} is an IPv4 address (or empty)`);
const ipWithPrefix = (what: string) =>
  text((v) => {
    const [address, prefix, extra] = v.split('/');
    return (
      extra === undefined &&
      prefix !== undefined &&
      isIpv4Address(address!) &&
      /^\d{1,2}$/.test(prefix) &&
      Number(prefix) <= 32
    );
  }, `${what} is an IPv4 address with a prefix, e.g. 192.168.3.10/24`);
const vendorName = (what: string) =>
  text((v) => v === '' || VENDOR_NAME.test(v), `${what} is 1 to 8 letters, digits or spaces (empty clears it)`);
const safetyId = integer(1, SAFETY_ID_MAX, 'A safety id');
const careId = (input: unknown): number =>
  input === EPC_CARE_DELETED || input === String(EPC_CARE_DELETED) ? EPC_CARE_DELETED : safetyId(input);

function frcSettings(identity: Identity): Setting[] {
  const settings: Setting[] = [
    {
      path: FRC_PATH.serialNumber,
      form: 'text',
      initial: identity.serialNumber,
      parse: text((v) => VENDOR_NAME.test(v), 'A serial number is 1 to 8 letters, digits or spaces'),
    },
    { path: FRC_PATH.cpuTemp, form: 'text', initial: '41' },
    { path: FRC_PATH.deviceTemp, form: 'text', initial: '29' },
    { path: FRC_PATH.deviceMac, form: 'text', initial: identity.mac },
    {
      path: FRC_PATH.pairedMacIndex,
      form: 'text',
      initial: '0',
      parse: (v) => String(integer(0, FRC_SLOTS - 1, 'The machine index')(v)),
    },
    { path: FRC_PATH.radioMode, form: 'text', initial: 'S', parse: oneOf(['M', 'S', 'T', 't'], 'The radio mode') },
    { path: FRC_PATH.ismMode, form: 'text', initial: 'T', parse: oneOf(['T', 't'], 'The ISM mode') },
    { path: FRC_PATH.ismOwnAddr, form: 'text', initial: '1,1,0', parse: triple('The ISM own address') },
    {
      path: FRC_PATH.radioChannel,
      form: 'raw-uint',
      initial: 1,
      parse: integer(1, 26, 'The radio channel'),
      cborKey: 'radio_channel',
    },
    {
      path: FRC_PATH.radioPower,
      form: 'raw-int',
      initial: 20,
      parse: oneOf(ISM_POWERS_DBM, 'The radio power (dBm)'),
      cborKey: 'radio_power',
    },
    {
      path: FRC_PATH.joystickPeriod,
      form: 'raw-uint',
      initial: 20,
      parse: integer(0, 255, 'The joystick period'),
      cborKey: 'period',
    },
    {
      path: FRC_PATH.keypadPeriod,
      form: 'raw-uint',
      initial: 20,
      parse: integer(0, 255, 'The keypad period'),
      cborKey: 'period',
    },
    // 0x09 OPERATIONAL, one byte as text (vendor spec §4).
    { path: FRC_PATH.mode, form: 'text', initial: '\u0009' },
  ];
  for (let slot = 0; slot < FRC_SLOTS; slot++) {
    settings.push(
      {
        path: slotPath(FRC_PATH.pairedDeviceMac, slot),
        form: 'text',
        initial: '00:00:00:00:00:00',
        parse: mac('A paired MAC address'),
      },
      // 30 characters: the NSC firmware's limit (vendor spec §4).
      {
        path: slotPath(FRC_PATH.pairedDeviceName, slot),
        form: 'text',
        initial: '',
        parse: text((v) => v.length <= 30, 'A machine name is at most 30 characters'),
      },
      {
        path: slotPath(FRC_PATH.ismPairAddr, slot),
        form: 'text',
        initial: '0,0,0',
        parse: triple('An ISM pair address'),
      },
    );
  }
  return settings;
}

function epcSettings(identity: Identity): Setting[] {
  const json = 'json' as const;
  const image = (file: 'ER_RO' | 'ER_FS' | 'ER_OPT_BYTES') =>
    oneOf([smcuImagePath('In', file), smcuImagePath('Out', file)], `The ${file} image path`);
  const settings: Setting[] = [
    { path: EPC_PATH.serialNumber, form: json, initial: identity.serialNumber },
    { path: EPC_PATH.timeoutMs, form: json, initial: 500, parse: integer(50, 10000, 'timeoutMs') },
    { path: EPC_PATH.txRateMs, form: json, initial: 50, parse: integer(1, 10000, 'txRateMs') },
    { path: EPC_PATH.deviceId, form: json, initial: 1, parse: safetyId },
    { path: EPC_PATH.smcuFirmware, form: json, initial: smcuImagePath('Out', 'ER_RO'), parse: image('ER_RO') },
    { path: EPC_PATH.smcuFirmwareCrcs, form: json, initial: smcuImagePath('Out', 'ER_FS'), parse: image('ER_FS') },
    {
      path: EPC_PATH.smcuOptionBytes,
      form: json,
      initial: smcuImagePath('Out', 'ER_OPT_BYTES'),
      parse: image('ER_OPT_BYTES'),
    },
    { path: 'cfg/sf/smcu/smcu0/txkey', form: json, initial: '0x11223344', parse: key32('A scramble key') },
    { path: 'cfg/sf/smcu/smcu1/txkey', form: json, initial: '0x11223344', parse: key32('A scramble key') },
    { path: EPC_PATH.ble0PairMac, form: json, initial: '00:00:00:00:00:00', parse: mac('pairMac') },
    { path: EPC_PATH.ble0IsServer, form: json, initial: false, parse: boolean('isServer') },
    { path: EPC_PATH.eth0Mac, form: json, initial: identity.mac },
    {
      path: EPC_PATH.canService,
      form: json,
      initial: 'none',
      parse: oneOf(['none', 'canopen', 'j1939'], 'canService'),
    },
    { path: EPC_PATH.canBitrate, form: json, initial: 250000, parse: oneOf(CAN_BITRATES, 'canBitrate') },
    {
      path: EPC_PATH.mcGroup,
      form: json,
      initial: '239.0.0.1',
      parse: text(
        (v) => isIpv4Address(v) && Number(v.split('.')[0]) >= 224 && Number(v.split('.')[0]) <= 239,
        'mcGroup is an IPv4 multicast address (224 to 239.x.x.x)',
      ),
    },
    { path: EPC_PATH.ismSerial, form: json, initial: '/dev/ttySTM7', parse: oneOf(['/dev/ttySTM7'], 'ismSerial') },
    { path: EPC_PATH.ismResetPin, form: json, initial: 'AP_ISM_RESET_L', parse: oneOf(['AP_ISM_RESET_L'], 'resetPin') },
    {
      path: EPC_PATH.ismRadioId,
      form: json,
      initial: '010001000100',
      parse: text((v) => /^[0-9A-Fa-f]{12}$/.test(v), 'radioId is 12 hex digits'),
    },
    {
      path: EPC_PATH.ismPeerId,
      form: json,
      initial: '010002000100',
      parse: text((v) => /^[0-9A-Fa-f]{12}$/.test(v), 'peerId is 12 hex digits'),
    },
    { path: EPC_PATH.ismPort, form: json, initial: 12345, parse: integer(1025, 48999, 'ismPort') },
    {
      path: EPC_PATH.ismConnectionMode,
      form: json,
      initial: 'tdmaremote',
      parse: oneOf(['base', 'tdmabase', 'tdmaremote', 'cw', 'cwmod'], 'connectionMode'),
    },
    { path: EPC_PATH.ismPower, form: json, initial: 20, parse: oneOf(ISM_POWERS_DBM, 'power (dBm)') },
    { path: EPC_PATH.ismRfChannel, form: json, initial: 1, parse: integer(1, 26, 'rfChannel') },
    { path: EPC_PATH.wlan0Ip, form: json, initial: '192.168.4.1/24', parse: ipWithPrefix('wlan0 ip') },
    { path: EPC_PATH.wlan0Dhcp, form: json, initial: false, parse: boolean('wlan0 dhcp') },
    { path: EPC_PATH.wlan0Gateway, form: json, initial: '', parse: ipv4OrEmpty('wlan0 gateway') },
    { path: EPC_PATH.wlan0Dns, form: json, initial: '', parse: ipv4OrEmpty('wlan0 dns') },
    { path: EPC_PATH.wlan0IsClient, form: json, initial: false, parse: boolean('isClient') },
    { path: EPC_PATH.wlan0IsServer, form: json, initial: false, parse: boolean('isServer') },
    { path: EPC_PATH.wlan0ClientSsid, form: json, initial: '', parse: text(() => true, 'clientSSID is text') },
    { path: EPC_PATH.wlan0ClientPsk, form: json, initial: '', parse: text(() => true, 'clientPsk is text') },
    { path: EPC_PATH.wlan0ServerSsid, form: json, initial: '', parse: text(() => true, 'serverSSID is text') },
    { path: EPC_PATH.wlan0ServerPsk, form: json, initial: '', parse: text(() => true, 'serverPsk is text') },
    { path: EPC_PATH.serialCpu, form: json, initial: identity.cpuSerial },
    { path: EPC_PATH.serialSe, form: json, initial: `SE${identity.cpuSerial.slice(0, 14)}` },
    { path: EPC_PATH.macBt0, form: json, initial: identity.mac },
    { path: EPC_PATH.macWlan0, form: json, initial: identity.mac },
    { path: 'info/ism/full_version', form: json, initial: '3.2.0-915' },
    { path: 'info/ism/freq_band', form: json, initial: '915' },
    { path: 'info/ism/hw_ver', form: json, initial: '2' },
    { path: 'info/ism/radio_type', form: json, initial: 'TDMA' },
    { path: 'info/ism/fw_ver', form: json, initial: '3.2.0' },
    { path: 'info/ism/protocol_ver', form: json, initial: '5' },
  ];
  for (const port of [0, 1] as const) {
    settings.push(
      {
        path: epcEthPath(port, 'ip'),
        form: json,
        initial: port === 0 ? '192.168.3.10/24' : '192.168.5.1/24',
        parse: ipWithPrefix(`eth0 port${port} ip`),
      },
      { path: epcEthPath(port, 'dhcp'), form: json, initial: false, parse: boolean(`eth0 port${port} dhcp`) },
      { path: epcEthPath(port, 'gateway'), form: json, initial: '', parse: ipv4OrEmpty(`eth0 port${port} gateway`) },
      { path: epcEthPath(port, 'dns'), form: json, initial: '', parse: ipv4OrEmpty(`eth0 port${port} dns`) },
    );
  }
  for (let slot = 0; slot < EPC_CARE_SLOTS; slot++) {
    settings.push(
      { path: epcCarePath(slot, 'deviceId'), form: json, initial: EPC_CARE_DELETED, parse: careId },
      { path: epcCarePath(slot, 'smcu0key'), form: json, initial: '0x11223344', parse: key32('A descramble key') },
      { path: epcCarePath(slot, 'smcu1key'), form: json, initial: '0x11223344', parse: key32('A descramble key') },
    );
  }
  for (let slot = 0; slot < EPC_PEER_SLOTS; slot++) {
    settings.push(
      {
        path: epcPeerPath(slot, 'addr'),
        form: json,
        initial: '',
        parse: text(
          (v) => v === '' || /^coap:\/\/[0-9a-zA-Z.:]+$/.test(v),
          'A peer address is coap://host[:port] (or empty)',
        ),
      },
      { path: epcPeerPath(slot, 'name'), form: json, initial: '', parse: vendorName('A peer name') },
      {
        path: epcPeerPath(slot, 'obsv'),
        form: json,
        initial: '[]',
        parse: text(isJsonArray, 'obsv is a JSON array written as a string'),
      },
    );
  }
  return settings;
}

function isJsonArray(value: string): boolean {
  try {
    return Array.isArray(JSON.parse(value));
  } catch {
    return false;
  }
}

/** What a device derives from its serial number at manufacture. */
export interface Identity {
  serialNumber: string;
  mac: string;
  cpuSerial: string;
}

/** The settings table of a family; every path a running value names is among them. */
export function settingsOf(family: VendorFamily, identity: Identity): Map<string, Setting> {
  const list = family === 'FRC' ? frcSettings(identity) : epcSettings(identity);
  for (const setting of list) {
    if (setting.form !== valueFormOf(setting.path, family))
      throw new Error(`${setting.path}: form ${setting.form} disagrees with protocol/vendor/values.ts`);
  }
  return new Map(list.map((s) => [s.path, s]));
}
