import { createHash } from 'node:crypto';
import { CAN_MODE_LABELS, DEVICE_ROLE_LABELS, INPUT_CONFIGURATION_LABELS } from './choice-labels';
import type { ConfigFileContent } from './files/config-file';

/**
 * The safety and link parameters a device runs, under stable keys, and how the tool checks them
 * (issue 26; ISO 13849-1 4.6.4, IEC 62061 6.7): the values the configuration intends are taken
 * from the configuration file's content with the tool's own code, the values the device runs are
 * read back from it, and the two are compared key by key and checksum against checksum.
 *
 * The parameter checksum ("safety signature") is SHA-256 over the canonical encoding below; its
 * short form, the last 8 hex digits, is what a person reads and types. docs/device-protocol.md
 * ("Running parameters") is the normative description a firmware engineer implements; its test
 * vector is pinned by test/domain/running-parameters.test.ts.
 */

/** One parameter's value: text, an integer, a flag, or null when the configuration leaves it unset. */
export type ParameterValue = string | number | boolean | null;
export type ParameterValues = Record<string, ParameterValue>;

/** What a device runs, as a device protocol reads it back (our `params` resource, or the vendor's cfg/… resources). */
export interface RunningParameters {
  values: ParameterValues;
  /** Lowercase hex SHA-256 of the canonical encoding of `values` (64 digits). */
  checksum: string;
  /** Who computed `checksum`: the device over what it stores, or the host over what it read (a device that reports none). */
  checksumBy: 'device' | 'host';
  /** The keys this device can report; absent: every key. Comparison and both checksums are over these keys only. */
  scope?: readonly string[];
}

/** Groups the table is shown in, in this order. */
export const PARAMETER_GROUPS = {
  safety: 'Safety function',
  identity: 'Device and peers',
  ism: 'ISM radio',
  can: 'CAN bus',
  network: 'Interfaces and network',
} as const;
export type ParameterGroup = keyof typeof PARAMETER_GROUPS;

export interface ParameterDefinition {
  key: string;
  group: ParameterGroup;
  /** Plain words for the table. */
  label: string;
  /** The unit of the value, '' when it has none. */
  unit: string;
}

type Extract = (content: Pick<ConfigFileContent, 'serialNumber' | 'device' | 'peers' | 'safety'>) => ParameterValue;

interface FixedParameter extends ParameterDefinition {
  extract: Extract;
}

/**
 * The fixed parameters, in table order. Keys never change meaning: a device, the ledger and a
 * report from years ago name parameters by them. Peers add `peer.<serial number>.role` (below).
 */
const FIXED_PARAMETERS: readonly FixedParameter[] = [
  {
    key: 'safety.timeout',
    group: 'safety',
    label: 'Safety timeout',
    unit: 'ms',
    extract: (c) => milliseconds(c.safety.timeoutConfiguration),
  },
  {
    key: 'safety.receiverOutputControl',
    group: 'safety',
    label: 'Receiver output control',
    unit: '',
    extract: (c) => integer(c.safety.receiverOutputControl),
  },
  {
    key: 'safety.stopCategory',
    group: 'safety',
    label: 'Stop category',
    unit: '',
    extract: (c) => text(c.device.stopCategory),
  },
  {
    key: 'safety.cat1StopDelay',
    group: 'safety',
    label: 'CAT1 stop delay',
    unit: 'ms',
    extract: (c) => secondsAsMilliseconds(c.device.cat1StopDelay),
  },
  {
    key: 'safety.ossdEnabled',
    group: 'safety',
    label: 'OSSD pulses',
    unit: '',
    extract: (c) => flag(c.device.ossdEnabled),
  },
  {
    key: 'safety.input1',
    group: 'safety',
    label: 'Input 1',
    unit: '',
    extract: (c) => text(c.device.inputConfiguration1),
  },
  {
    key: 'safety.input2',
    group: 'safety',
    label: 'Input 2',
    unit: '',
    extract: (c) => text(c.device.inputConfiguration2),
  },
  {
    key: 'safety.input3',
    group: 'safety',
    label: 'Input 3',
    unit: '',
    extract: (c) => text(c.device.inputConfiguration3),
  },
  {
    key: 'device.serialNumber',
    group: 'identity',
    label: 'Device id (serial number)',
    unit: '',
    extract: (c) => c.serialNumber,
  },
  {
    key: 'device.role',
    group: 'identity',
    label: 'Device role',
    unit: '',
    extract: (c) => text(c.device.deviceConfigurationType),
  },
  { key: 'device.peers', group: 'identity', label: 'Peer device ids', unit: '', extract: (c) => peerSerials(c.peers) },
  {
    key: 'ism.txPower',
    group: 'ism',
    label: 'ISM transmit power',
    unit: '',
    extract: (c) => text(c.safety.ismTxPower),
  },
  { key: 'ism.channel', group: 'ism', label: 'ISM channel', unit: '', extract: (c) => integer(c.safety.ismTxChannel) },
  {
    key: 'ism.networkId',
    group: 'ism',
    label: 'ISM network id',
    unit: '',
    extract: (c) => integer(c.safety.ismNetworkId),
  },
  { key: 'can.mode', group: 'can', label: 'CAN mode', unit: '', extract: (c) => text(c.safety.canMode) },
  {
    key: 'can.bitrate',
    group: 'can',
    label: 'CAN bit rate',
    unit: 'bit/s',
    extract: (c) => bitrate(c.safety.canKBitrate),
  },
  { key: 'can.can0Id', group: 'can', label: 'CAN 0 id', unit: '', extract: (c) => integer(c.device.can0Id) },
  { key: 'can.can1Id', group: 'can', label: 'CAN 1 id', unit: '', extract: (c) => integer(c.device.can1Id) },
  {
    key: 'can.displayTextPgn',
    group: 'can',
    label: 'Display text PGN',
    unit: '',
    extract: (c) => integer(c.safety.displayTextPgn),
  },
  {
    key: 'can.settingsPgn',
    group: 'can',
    label: 'Settings PGN',
    unit: '',
    extract: (c) => integer(c.safety.settingsPgn),
  },
  {
    key: 'can.approvedSourceAddresses',
    group: 'can',
    label: 'Approved source addresses',
    unit: '',
    extract: (c) => integerList(c.safety.approvedSourceAddresses),
  },
  {
    key: 'network.commInterface',
    group: 'network',
    label: 'Communication interfaces',
    unit: '',
    extract: (c) => text(c.device.commInterface),
  },
  {
    key: 'network.ipAddress',
    group: 'network',
    label: 'IP address',
    unit: '',
    extract: (c) => text(c.device.ipAddress),
  },
];

export const FIXED_PARAMETER_KEYS: readonly string[] = FIXED_PARAMETERS.map((p) => p.key);

const PEER_ROLE = /^peer\.(.+)\.role$/;

export function peerRoleKey(serialNumber: string): string {
  return `peer.${serialNumber}.role`;
}

/** The definition of any key: a fixed one, a peer's role, or an unknown key a device reported (named as it is). */
export function parameterDefinition(key: string): ParameterDefinition {
  const fixed = FIXED_PARAMETERS.find((p) => p.key === key);
  if (fixed) return { key, group: fixed.group, label: fixed.label, unit: fixed.unit };
  const peer = PEER_ROLE.exec(key);
  if (peer) return { key, group: 'identity', label: `Role of peer ${peer[1]}`, unit: '' };
  return { key, group: 'identity', label: key, unit: '' };
}

/**
 * The parameters a configuration file's content intends for its device, computed by the tool's own
 * code from the file (never from what a device says). A blank file intends no configuration: every
 * parameter null but the device's id.
 */
export function intendedParameters(
  content: Pick<ConfigFileContent, 'serialNumber' | 'device' | 'peers' | 'safety'>,
): ParameterValues {
  const values: ParameterValues = {};
  for (const parameter of FIXED_PARAMETERS) values[parameter.key] = parameter.extract(content);
  for (const peer of content.peers) {
    const serial = peer.serialNumber;
    if (typeof serial === 'string') values[peerRoleKey(serial)] = text(peer.deviceConfigurationType);
  }
  return values;
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** '1000ms' (the file's spelling) or 1000 → 1000. */
function milliseconds(value: unknown): number | null {
  if (typeof value === 'number') return integer(value);
  const match = typeof value === 'string' ? /^(\d+)ms$/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

/** The file keeps the CAT1 stop delay in seconds; devices run whole milliseconds. */
function secondsAsMilliseconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) : null;
}

/** 'BITRATE_250000' → 250000 bit/s. */
function bitrate(value: unknown): number | null {
  const match = typeof value === 'string' ? /^BITRATE_(\d+)$/.exec(value) : null;
  return match ? Number(match[1]) : null;
}

/** A list of integers in the file's order ('128,129'); the order is the device's table order. */
function integerList(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  return value.map((v) => String(v)).join(',');
}

/** The peers' serial numbers, sorted (a device keeps a set of peers, not a list). */
function peerSerials(peers: readonly Record<string, unknown>[]): string | null {
  const serials = peers.map((p) => p.serialNumber).filter((s): s is string => typeof s === 'string');
  return serials.length === 0 ? null : [...serials].sort().join(',');
}

// ---------------------------------------------------------------------------------------------
// Canonical encoding and checksum (docs/device-protocol.md, "Running parameters")

/** A value of the canonical encoding: the parameter values, and lists of them for the table digest. */
type CanonicalValue = ParameterValue | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

/**
 * Deterministic CBOR, RFC 8949 §4.2.1 ("core deterministic encoding requirements"), restricted to
 * what parameters hold: every length and integer in its shortest form, definite lengths only, text
 * as UTF-8, map keys text and sorted by the bytewise order of their encodings (which for text keys
 * is: shorter first, then bytewise), true/false/null as simple values 21/20/22. No floating point,
 * no tags, no byte strings: a value that is not text, a safe integer, a flag or null is refused.
 */
export function canonicalParameterEncoding(value: CanonicalValue): Uint8Array {
  const out: number[] = [];
  encodeValue(value, out);
  return new Uint8Array(out);
}

function encodeValue(value: CanonicalValue, out: number[]): void {
  if (value === null) out.push(0xf6);
  else if (value === true) out.push(0xf5);
  else if (value === false) out.push(0xf4);
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new RangeError(`A parameter value must be an integer, text, a flag or null, not ${value}.`);
    if (value >= 0) head(0, value, out);
    else head(1, -1 - value, out);
  } else if (typeof value === 'string') {
    const bytes = new TextEncoder().encode(value);
    head(3, bytes.length, out);
    for (const b of bytes) out.push(b);
  } else if (Array.isArray(value)) {
    head(4, value.length, out);
    for (const item of value as readonly CanonicalValue[]) encodeValue(item, out);
  } else {
    const entries = Object.entries(value as { readonly [key: string]: CanonicalValue }).map(([key, item]) => {
      const encodedKey: number[] = [];
      encodeValue(key, encodedKey);
      return { encodedKey, item };
    });
    entries.sort((a, b) => compareBytes(a.encodedKey, b.encodedKey));
    head(5, entries.length, out);
    for (const { encodedKey, item } of entries) {
      out.push(...encodedKey);
      encodeValue(item, out);
    }
  }
}

/** A major type's initial byte and argument, shortest form (RFC 8949 §4.2.1). */
function head(major: number, argument: number, out: number[]): void {
  const type = major << 5;
  if (argument < 24) out.push(type | argument);
  else if (argument < 0x100) out.push(type | 24, argument);
  else if (argument < 0x10000) out.push(type | 25, argument >> 8, argument & 0xff);
  else if (argument < 0x100000000)
    out.push(type | 26, (argument >>> 24) & 0xff, (argument >>> 16) & 0xff, (argument >>> 8) & 0xff, argument & 0xff);
  else {
    const high = Math.floor(argument / 0x100000000);
    const low = argument >>> 0;
    out.push(
      type | 27,
      (high >>> 24) & 0xff,
      (high >>> 16) & 0xff,
      (high >>> 8) & 0xff,
      high & 0xff,
      (low >>> 24) & 0xff,
      (low >>> 16) & 0xff,
      (low >>> 8) & 0xff,
      low & 0xff,
    );
  }
}

function compareBytes(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The values of the keys in scope (every key when `scope` is absent); a key in scope that is missing counts as null. */
export function valuesInScope(values: ParameterValues, scope: readonly string[] | undefined): ParameterValues {
  if (!scope) return { ...values };
  return Object.fromEntries(scope.map((key) => [key, values[key] ?? null]));
}

/** The parameter checksum: lowercase hex SHA-256 of the canonical encoding of the map of values. */
export function parameterChecksum(values: ParameterValues): string {
  return sha256Hex(canonicalParameterEncoding(values));
}

/** What a person reads and types: the checksum's last 8 hex digits, upper case ('3F9A0C12'). */
export function shortChecksum(checksum: string): string {
  return checksum.slice(-8).toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// Comparison

export interface ParameterRow extends ParameterDefinition {
  /** null also when the configuration does not name the key (a device reported an extra one). */
  intended: ParameterValue;
  running: ParameterValue;
  match: boolean;
}

export interface ParameterComparison {
  rows: ParameterRow[];
  /** Computed by the tool over the intended values in scope. */
  intendedChecksum: string;
  /** As the device (or, for a device that reports none, the host) gave it. */
  runningChecksum: string;
  checksumBy: 'device' | 'host';
  /** The device's checksum is that of the values it reported: false means it reported values it does not run, or garbled them. */
  runningChecksumConsistent: boolean;
  checksumsMatch: boolean;
  /** Every row matches, the checksums are equal, and the device's checksum is that of its values. */
  match: boolean;
  /** SHA-256 (hex) of the canonical encoding of the table and both checksums: what the ledger keeps. */
  tableDigest: string;
}

/**
 * Compares the intended parameters with what the device runs, over the device's scope. Rows follow
 * the table order (fixed keys, then peers, then keys only the device named); each says whether the
 * value matches.
 */
export function compareParameters(intended: ParameterValues, running: RunningParameters): ParameterComparison {
  const scope = running.scope;
  const intendedInScope = valuesInScope(intended, scope);
  const runningInScope = valuesInScope(running.values, scope);
  const keys = orderedKeys([...Object.keys(intendedInScope), ...Object.keys(runningInScope)]);
  const rows = keys.map((key): ParameterRow => {
    const i = intendedInScope[key] ?? null;
    const r = runningInScope[key] ?? null;
    return {
      ...parameterDefinition(key),
      intended: i,
      running: r,
      match: i === r && key in intendedInScope === key in runningInScope,
    };
  });
  const intendedChecksum = parameterChecksum(intendedInScope);
  const runningChecksum = running.checksum.toLowerCase();
  const runningChecksumConsistent = parameterChecksum(runningInScope) === runningChecksum;
  const checksumsMatch = intendedChecksum === runningChecksum;
  const match = checksumsMatch && runningChecksumConsistent && rows.every((row) => row.match);
  const tableDigest = sha256Hex(
    canonicalParameterEncoding({
      rows: rows.map((row) => [row.key, row.intended, row.running, row.match]),
      intendedChecksum,
      runningChecksum,
      checksumBy: running.checksumBy,
    }),
  );
  return {
    rows,
    intendedChecksum,
    runningChecksum,
    checksumBy: running.checksumBy,
    runningChecksumConsistent,
    checksumsMatch,
    match,
    tableDigest,
  };
}

/** Keys in table order: the fixed keys, each peer's role right after the list of peers, then keys only a device named. */
export function orderedKeys(keys: readonly string[]): string[] {
  const unique = [...new Set(keys)];
  const rank = (key: string): number => {
    const fixed = FIXED_PARAMETER_KEYS.indexOf(key);
    if (fixed >= 0) return fixed;
    // A peer's role right after the list of peers; keys only a device named at the end.
    return PEER_ROLE.test(key) ? FIXED_PARAMETER_KEYS.indexOf('device.peers') + 0.5 : FIXED_PARAMETER_KEYS.length;
  };
  return unique.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The parameters whose values are choices, named as the designer's dropdowns name them. */
const CHOICE_LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'can.mode': CAN_MODE_LABELS,
  'device.role': DEVICE_ROLE_LABELS,
  'safety.input1': INPUT_CONFIGURATION_LABELS,
  'safety.input2': INPUT_CONFIGURATION_LABELS,
  'safety.input3': INPUT_CONFIGURATION_LABELS,
};

/**
 * A value as the table shows it: '1000 ms', 'yes', '—' for unset, a choice by its label
 * ('CANopen', 'E-stop switch') when `key` names a parameter of choices. A value no label knows is
 * shown as the device sent it: a wrong value must stay visible as it is.
 */
export function parameterValueText(value: ParameterValue, unit: string, key?: string): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const choices: Readonly<Record<string, string>> | undefined =
    key === undefined ? undefined : (CHOICE_LABELS[key] ?? (PEER_ROLE.test(key) ? DEVICE_ROLE_LABELS : undefined));
  if (choices && typeof value === 'string' && Object.hasOwn(choices, value)) return choices[value]!;
  return unit === '' ? String(value) : `${value} ${unit}`;
}

/** What a technician does about a mismatch, in one sentence. */
export function parameterMismatchAdvice(comparison: ParameterComparison): string | null {
  if (comparison.match) return null;
  if (!comparison.runningChecksumConsistent) {
    return 'The device reports values that do not give its own checksum: its parameter memory or firmware is faulty. Do not put it in service; apply the configuration again, and replace the device if this repeats.';
  }
  return 'The device does not run what the configuration intends. Do not put it in service: apply the configuration again and verify again; if a parameter still differs, replace the device.';
}

/**
 * The confirmation rule: a person confirms by typing the checksum's short form. Refused when the
 * two checksums differ (or anything else differs), and when the typed text is not the short form.
 * Returns null when confirmed, otherwise why not.
 */
export function confirmationRefusal(comparison: ParameterComparison, typed: string): string | null {
  if (!comparison.match)
    return 'The parameters differ from the configuration (the two checksums are not equal): nothing can be confirmed. Apply the configuration again.';
  const given = typed.trim().toUpperCase();
  if (!/^[0-9A-F]{8}$/.test(given))
    return 'Type the 8 hex digits of the checksum (0-9 and A-F) as the table shows it, for example 3F9A0C12.';
  if (given !== shortChecksum(comparison.runningChecksum))
    return 'That is not the checksum the device reports. Read it again from the table and type it.';
  return null;
}
