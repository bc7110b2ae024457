import { englishWords, type Words } from './domain-words';

/**
 * Why the station did not work on a device it saw, as a code and its values: a serial number not in
 * the shift's configuration, or one it already has (plugged in twice, or finished this shift). The
 * station core keeps its English sentence for --json, the shift report and logs; the Station screen
 * and the CLI say this in the reader's language (`station:note.*`).
 */
export type StationNoteReason =
  | { kind: 'notInConfiguration'; serial: string; configuration: string }
  | { kind: 'pluggedTwice'; serial: string; otherLink: string }
  /** `at`: when the lane finished, HH:MM UTC. */
  | { kind: 'alreadyProvisioned'; serial: string; at: string }
  | { kind: 'alreadyInSync'; serial: string; at: string };

export function stationNoteText(reason: StationNoteReason, words: Words = englishWords()): string {
  switch (reason.kind) {
    case 'notInConfiguration':
      return words.t('station:note.notInConfiguration', { serial: reason.serial, configuration: reason.configuration });
    case 'pluggedTwice':
      return words.t('station:note.pluggedTwice', { serial: reason.serial, link: reason.otherLink });
    case 'alreadyProvisioned':
      return words.t('station:note.alreadyProvisioned', { serial: reason.serial, at: reason.at });
    case 'alreadyInSync':
      return words.t('station:note.alreadyInSync', { serial: reason.serial, at: reason.at });
  }
}
