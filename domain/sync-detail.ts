import { englishWords, type Words } from './domain-words';

/**
 * What the core found when it compared a device with what the service expects, as codes and
 * values (main/engine/jobs/device-sync.ts), for the CLI and the screens to say in the reader's
 * language. The core's English sentence (`DeviceSync.text`) stays as it was for `--json` and logs.
 */
export type SyncFinding =
  | { kind: 'serviceNotAsked' }
  | { kind: 'notRegistered' }
  | { kind: 'firmwareNeverObserved' }
  | { kind: 'firmwareLatestUnknown'; version: string }
  | { kind: 'firmwareBehind'; version: string; expected: string }
  | { kind: 'notInConfiguration' }
  /** The device names no file; its settings read back differ (`mismatches`: the core's English list, data here). */
  | { kind: 'settingsDrift'; mismatches: string }
  /** A note beside "in sync": the device names no file, and its settings read back equal the configuration's. */
  | { kind: 'settingsEqual'; compared: number }
  | { kind: 'configurationNotRead'; recordedSyncId: string | null }
  | { kind: 'configurationDrift'; held: string | null; expected: string | null; configuration: string };

/**
 * How a device stands against what the service expects of it: the latest firmware for its type,
 * and the configuration file the service serves it now. `device list`, `device verify` and the
 * Devices screen all judge with deviceSync (main/engine/jobs/device-sync.ts), so they say the same
 * of the same device.
 */
export type DeviceSyncState =
  /** Runs the latest firmware and holds the current configuration. */
  | 'in-sync'
  /** Runs older firmware than the service's latest. */
  | 'behind'
  /** Holds another configuration than the one the service serves it. */
  | 'drift'
  /** In no configuration: nothing to hold. */
  | 'unconfigured'
  /** Cannot be told: not registered here, the service unreachable, or never observed. */
  | 'unknown';

/** The states in a word or two, as `device list` and `device verify` print them. */
export const SYNC_STATE_LABELS: Readonly<Record<DeviceSyncState, string>> = {
  'in-sync': 'in sync',
  behind: 'behind',
  drift: 'drift',
  unconfigured: 'no configuration',
  unknown: 'unknown',
};

export const SYNC_FINDING_KINDS = [
  'serviceNotAsked',
  'notRegistered',
  'firmwareNeverObserved',
  'firmwareLatestUnknown',
  'firmwareBehind',
  'notInConfiguration',
  'settingsDrift',
  'settingsEqual',
  'configurationNotRead',
  'configurationDrift',
] as const satisfies readonly SyncFinding['kind'][];

/** One finding, one clause: "firmware behind (device 1.0.0, service expects 1.1.0)". */
export function syncFindingText(finding: SyncFinding, words: Words = englishWords()): string {
  switch (finding.kind) {
    case 'serviceNotAsked':
      return words.t('domain:sync.serviceNotAsked');
    case 'notRegistered':
      return words.t('domain:sync.notRegistered');
    case 'firmwareNeverObserved':
      return words.t('domain:sync.firmwareNeverObserved');
    case 'firmwareLatestUnknown':
      return words.t('domain:sync.firmwareLatestUnknown', { version: finding.version });
    case 'firmwareBehind':
      return words.t('domain:sync.firmwareBehind', { version: finding.version, expected: finding.expected });
    case 'notInConfiguration':
      return words.t('domain:sync.notInConfiguration');
    case 'settingsDrift':
      return words.t('domain:sync.settingsDrift', { mismatches: finding.mismatches });
    case 'settingsEqual':
      return words.t('domain:sync.settingsEqual', { compared: finding.compared });
    case 'configurationNotRead':
      return words.t('domain:sync.configurationNotRead', {
        hasRecord: finding.recordedSyncId === null ? 'no' : 'yes',
        recorded: finding.recordedSyncId ?? '',
      });
    case 'configurationDrift':
      return words.t('domain:sync.configurationDrift', {
        holds: finding.held === null ? 'no' : 'yes',
        held: finding.held ?? '',
        knows: finding.expected === null ? 'no' : 'yes',
        expected: finding.expected ?? '',
        configuration: finding.configuration,
      });
  }
}

/**
 * A device's sync detail in the reader's language: the findings, one after another; "in sync",
 * with its notes when it was told otherwise than by the file's syncId, when nothing is wrong.
 */
export function syncDetailText(findings: readonly SyncFinding[], words: Words = englishWords()): string {
  const notes = findings.filter((finding) => finding.kind === 'settingsEqual');
  const problems = findings.filter((finding) => finding.kind !== 'settingsEqual');
  if (problems.length === 0)
    return notes.length === 0
      ? words.t('domain:sync.inSync')
      : words.t('domain:sync.inSyncWith', {
          notes: notes.map((note) => syncFindingText(note, words)).join(words.t('domain:sync.separator')),
        });
  return problems.map((problem) => syncFindingText(problem, words)).join(words.t('domain:sync.separator'));
}
