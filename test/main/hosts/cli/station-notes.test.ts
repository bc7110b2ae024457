import { describe, expect, it } from 'vitest';
import type { StationCounts, StationEvent } from '../../../../contract/station';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { stationNoteText, type StationNoteReason } from '../../../../domain/station-note';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { eventLine } from '../../../../main/hosts/cli/commands/station';

/**
 * Why the station refused or flagged a device, in the reader's language (issue 29): the core sends
 * the reason as a code with its values beside the English sentence.
 */

const counts: StationCounts = { done: 0, failed: 0, waiting: 0, working: 0, inSync: 0, refused: 1, duplicate: 0 };
const refused: StationNoteReason = { kind: 'notInConfiguration', serial: 'EPC000999', configuration: 'Line 3' };

describe('a Station note', () => {
  it('says in English, from its code, the sentences the core has always written', () => {
    expect(stationNoteText(refused)).toBe(
      'EPC000999 is not in the configuration "Line 3": set it aside (it belongs to another configuration, or must be added to this one first).',
    );
    expect(stationNoteText({ kind: 'pluggedTwice', serial: 'EPC000101', otherLink: 'serial:/dev/ttyACM0' })).toBe(
      'EPC000101 is plugged in twice: also on serial:/dev/ttyACM0. Two devices must not share a serial number: set this one aside and report it.',
    );
    expect(stationNoteText({ kind: 'alreadyProvisioned', serial: 'EPC000101', at: '13:05' })).toBe(
      'EPC000101 was already provisioned in this shift (13:05 UTC): left alone. If this is another device, its serial number is a copy: set it aside and report it.',
    );
    expect(stationNoteText({ kind: 'alreadyInSync', serial: 'EPC000101', at: '13:05' })).toContain(
      'was already found in sync in this shift (13:05 UTC)',
    );
  });

  it('on the CLI: in German from the code; the English sentence in English and from an older core', () => {
    const event = (why: StationNoteReason | undefined): StationEvent => ({
      at: '2026-11-25T13:00:00.000Z',
      counts,
      event: 'refused',
      serialNumber: 'EPC000999',
      link: 'serial:/dev/ttyACM2',
      reason: stationNoteText(refused),
      ...(why ? { why } : {}),
    });
    const german = inCliLanguage('de', () => eventLine(event(refused)));
    expect(german).toContain(stationNoteText(refused, createTranslator('de')));
    expect(german).toContain('„Line 3“');
    expect(german).not.toContain('is not in the configuration');
    expect(inCliLanguage('en', () => eventLine(event(refused)))).toContain(stationNoteText(refused));
    expect(inCliLanguage('de', () => eventLine(event(undefined)))).toContain('is not in the configuration');
  });
});
