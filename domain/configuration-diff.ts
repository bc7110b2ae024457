import { fieldLabel } from './field-labels';
import { englishWords, type Words } from './domain-words';
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

/** What a change is about, as codes and values, for changeText to say in the reader's language. */
export type ChangeSubject =
  | { kind: 'blank'; removed: boolean }
  /** A setting of the configuration or the device (`peer` null), or of the named peer. */
  | { kind: 'setting'; key: string; peer: string | null }
  | { kind: 'peerAdded'; peer: string; description: PeerDescription }
  | { kind: 'peerRemoved'; peer: string };

/** A peer as the change names it: its type and role, the interface it is reached over, its address. */
export interface PeerDescription {
  kind: string;
  over: string | null;
  at: string | null;
}

/** One parameter that changes, and the sentence a technician reads for it. */
export interface SettingChange {
  /** Dotted path: 'safety.ismTxChannel', 'device.ipAddress', 'peers.EPC000102'. */
  field: string;
  before: string;
  after: string;
  /** The sentence in English (--json, logs); changeText says it in another language. */
  text: string;
  subject: ChangeSubject;
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
    const subject: ChangeSubject = { kind: 'blank', removed: next.blank };
    changes.push({ field: 'blank', before: b, after: a, subject, text: changeText({ before: b, after: a, subject }) });
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
  peer: string | null = null,
): SettingChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: SettingChange[] = [];
  for (const key of keys) {
    const b = settingValueText(key, before[key]);
    const a = settingValueText(key, after[key]);
    if (b === a) continue;
    const subject: ChangeSubject = { kind: 'setting', key, peer };
    changes.push({
      field: `${section}.${key}`,
      before: b,
      after: a,
      subject,
      text: changeText({ before: b, after: a, subject }),
    });
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
      const subject: ChangeSubject = { kind: 'peerAdded', peer: serial, description: peerDescription(now) };
      const after = peerText(now);
      changes.push({ field, before: NOT_SET, after, subject, text: changeText({ before: NOT_SET, after, subject }) });
    } else if (was && !now) {
      const subject: ChangeSubject = { kind: 'peerRemoved', peer: serial };
      const before = peerText(was);
      changes.push({ field, before, after: NOT_SET, subject, text: changeText({ before, after: NOT_SET, subject }) });
    } else if (was && now) {
      const { serialNumber: _b, ...wasRest } = was;
      const { serialNumber: _a, ...nowRest } = now;
      changes.push(...recordChanges(field, wasRest, nowRest, serial));
    }
  }
  return changes;
}

function peerDescription(peer: Readonly<Record<string, unknown>>): PeerDescription {
  const parts = [peer['deviceType'], peer['deviceConfigurationType']].filter((p) => typeof p === 'string');
  return {
    kind: parts.join(' '),
    over: peer['commInterface'] ? settingValueText('commInterface', peer['commInterface']) : null,
    at: peer['ipAddress'] ? String(peer['ipAddress']) : null,
  };
}

function peerText(peer: Readonly<Record<string, unknown>>): string {
  return peerDescriptionText(peerDescription(peer));
}

/** "EPC receiver over Ethernet at 10.0.0.2", in the reader's words. */
export function peerDescriptionText(peer: PeerDescription, words: Words = englishWords()): string {
  const over = peer.over === null ? null : words.t('domain:change.peerOver', { interface: peer.over });
  const at = peer.at === null ? null : words.t('domain:change.peerAt', { address: peer.at });
  return [peer.kind, over, at].filter((part) => part !== null && part !== '').join(' ');
}

/** The values the change says in words of its own (the rest are numbers, units, names and addresses). */
const VALUE_WORDS: Readonly<Record<string, string>> = {
  'not set': 'domain:change.value.notSet',
  'a password': 'domain:change.value.password',
  'no configuration': 'domain:change.value.noConfiguration',
  configured: 'domain:change.value.configured',
};

/** A before or after value as the reader says it. */
export function changeValueText(value: string, words: Words = englishWords()): string {
  const key = VALUE_WORDS[value];
  return key === undefined ? value : words.t(key);
}

/** The line above the changes: what the comparison stands on (the syncId applied, and whether its settings are known). */
export function changeBasisText(
  basis: { appliedSyncId: string | null; appliedFrom: string | null; inSync: boolean },
  words: Words = englishWords(),
): string {
  if (basis.appliedSyncId === null) return words.t('domain:change.basis.none');
  if (basis.appliedFrom === null && !basis.inSync)
    return words.t('domain:change.basis.unknown', { applied: basis.appliedSyncId });
  return words.t('domain:change.basis.applied', { applied: basis.appliedSyncId });
}

/** The change's line, in the reader's language: "ISM channel 12 → 14", "Peer EPC000102 added (…)". */
export function changeText(
  change: Pick<SettingChange, 'before' | 'after' | 'subject'>,
  words: Words = englishWords(),
): string {
  const { subject } = change;
  switch (subject.kind) {
    case 'blank':
      return words.t(subject.removed ? 'domain:change.configurationRemoved' : 'domain:change.configurationSet');
    case 'peerAdded':
      return words.t('domain:change.peerAdded', {
        peer: subject.peer,
        description: peerDescriptionText(subject.description, words),
      });
    case 'peerRemoved':
      return words.t('domain:change.peerRemoved', { peer: subject.peer });
    case 'setting': {
      const line = words.t('domain:change.setting', {
        name: fieldLabel(subject.key, words),
        before: changeValueText(change.before, words),
        after: changeValueText(change.after, words),
      });
      return subject.peer === null ? line : words.t('domain:change.ofPeer', { peer: subject.peer, change: line });
    }
  }
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
