import { fieldLabel } from './field-labels';
import { CAN_MODE_LABELS, DEVICE_ROLE_LABELS, INPUT_CONFIGURATION_LABELS } from './choice-labels';

/**
 * What a device's configuration file sets, without what each issue of a file adds (syncId,
 * sequence, issue time): the part of ConfigFileContent that a change of configuration changes.
 */
export interface ConfiguredSettings {
  blank: boolean;
  configurationId: string | null;
  device: Readonly<Record<string, unknown>>;
  peers: readonly Readonly<Record<string, unknown>>[];
  safety: Readonly<Record<string, unknown>>;
}

/** One parameter that changes, and the sentence a technician reads for it. */
export interface SettingChange {
  /** Dotted path: 'safety.ismTxChannel', 'device.ipAddress', 'peers.EPC000102'. */
  field: string;
  before: string;
  after: string;
  text: string;
}

/** Said of a value that the file does not set. */
export const NOT_SET = 'not set';

/**
 * What applying `next` changes on a device that holds `applied` (null: a device that holds no file
 * we know of, so every setting is new). Safety parameters first, then the device's own settings,
 * then the peers it talks to; each in a stable order so two runs print the same lines.
 */
export function configurationDiff(applied: ConfiguredSettings | null, next: ConfiguredSettings): SettingChange[] {
  const before = applied ?? { blank: true, configurationId: null, device: {}, peers: [], safety: {} };
  const changes: SettingChange[] = [];
  if (before.blank !== next.blank) {
    const b = before.blank ? 'no configuration' : 'configured';
    const a = next.blank ? 'no configuration' : 'configured';
    changes.push({
      field: 'blank',
      before: b,
      after: a,
      text: next.blank ? 'Configuration removed (the device is reset to no configuration)' : 'Configuration set',
    });
  }
  changes.push(...recordChanges('safety', before.safety, next.safety));
  changes.push(...recordChanges('device', before.device, next.device));
  changes.push(...peerChanges(before.peers, next.peers));
  return changes;
}

function recordChanges(
  section: string,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): SettingChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: SettingChange[] = [];
  for (const key of keys) {
    const b = settingValueText(key, before[key]);
    const a = settingValueText(key, after[key]);
    if (b === a) continue;
    changes.push({ field: `${section}.${key}`, before: b, after: a, text: `${fieldLabel(key)} ${b} → ${a}` });
  }
  return changes;
}

function peerChanges(
  before: readonly Readonly<Record<string, unknown>>[],
  after: readonly Readonly<Record<string, unknown>>[],
): SettingChange[] {
  const bySerial = (peers: readonly Readonly<Record<string, unknown>>[]) =>
    new Map(peers.map((p) => [typeof p['serialNumber'] === 'string' ? p['serialNumber'] : JSON.stringify(p), p]));
  const b = bySerial(before);
  const a = bySerial(after);
  const serials = [...new Set([...b.keys(), ...a.keys()])].sort();
  const changes: SettingChange[] = [];
  for (const serial of serials) {
    const was = b.get(serial);
    const now = a.get(serial);
    const field = `peers.${serial}`;
    if (!was && now) {
      changes.push({ field, before: NOT_SET, after: peerText(now), text: `Peer ${serial} added (${peerText(now)})` });
    } else if (was && !now) {
      changes.push({ field, before: peerText(was), after: NOT_SET, text: `Peer ${serial} removed` });
    } else if (was && now) {
      const { serialNumber: _b, ...wasRest } = was;
      const { serialNumber: _a, ...nowRest } = now;
      for (const change of recordChanges(field, wasRest, nowRest))
        changes.push({ ...change, text: `Peer ${serial}: ${change.text}` });
    }
  }
  return changes;
}

function peerText(peer: Readonly<Record<string, unknown>>): string {
  const parts = [peer['deviceType'], peer['deviceConfigurationType']].filter((p) => typeof p === 'string');
  const over = peer['commInterface'] ? ` over ${settingValueText('commInterface', peer['commInterface'])}` : '';
  const at = peer['ipAddress'] ? ` at ${String(peer['ipAddress'])}` : '';
  return `${parts.join(' ')}${over}${at}`.trim();
}

/** A setting's value in the words and units a technician uses ('500ms' → '500 ms', '1000ms' → '1 s'). */
/** The settings whose values are choices, by the designer's dropdown labels ('CANopen', not 'canopen'). */
const CHOICE_LABELS: Readonly<Record<string, Readonly<Record<string, string>> | undefined>> = {
  canMode: CAN_MODE_LABELS,
  deviceConfigurationType: DEVICE_ROLE_LABELS,
  inputConfiguration1: INPUT_CONFIGURATION_LABELS,
  inputConfiguration2: INPUT_CONFIGURATION_LABELS,
  inputConfiguration3: INPUT_CONFIGURATION_LABELS,
};

export function settingValueText(key: string, value: unknown): string {
  if (value === undefined || value === null) return NOT_SET;
  if (key === 'wifiPassword') return 'a password'; // never print a secret: only that one is set
  if (key === 'timeoutConfiguration' && typeof value === 'string') {
    const ms = /^(\d+)ms$/.exec(value);
    if (ms) return durationText(Number(ms[1]));
  }
  if (key === 'cat1StopDelay' && typeof value === 'number') return durationText(value * 1000);
  if (key === 'canKBitrate' && typeof value === 'string') {
    const bits = /^BITRATE_(\d+)$/.exec(value);
    if (bits) return `${Number(bits[1]) / 1000} kbit/s`;
  }
  if (key === 'voltage' && typeof value === 'string') {
    const volts = /^VOLTAGE_(\d+)V$/.exec(value);
    if (volts) return `${volts[1]} V`;
  }
  if (/Baudrate$/.test(key) && typeof value === 'string') {
    const baud = /^BAUDRATE_(\d+)$/.exec(value);
    if (baud) return `${baud[1]} baud`;
  }
  if (/Pgn$/.test(key) && typeof value === 'number') return `0x${value.toString(16).toUpperCase()}`;
  if (key === 'commInterface' && typeof value === 'string') return value.split(',').join(' and ');
  const choice = typeof value === 'string' ? CHOICE_LABELS[key]?.[value] : undefined;
  if (choice !== undefined) return choice;
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((v) => String(v)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number);
}

function durationText(ms: number): string {
  if (ms >= 1000 && ms % 100 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
