import { describe, expect, it } from 'vitest';
import { createTranslator, LANGUAGES } from '../../domain/i18n/index.js';
import {
  functionTestReasonsText,
  functionTestReasonText,
  reactionsText,
  type FunctionTestFailReason,
} from '../../domain/function-test-words';
import { describeReactions, failReasonsOf, verdictOf } from '../../main/features/function-test';

/**
 * What a function test observed and why its verdict failed, as codes and values (issue 29): the
 * English is what the function test core wrote before, another language says it in its words, and
 * serial numbers, milliseconds and a link's own message stay as they are.
 */

const observation = {
  pressed: true,
  ended: 'pressed' as const,
  pressedAt: '2026-11-29T06:00:00.000Z',
  receivers: [
    { serialNumber: 'EPC000102', tripped: true, reactionMs: 1204, trippedBy: 'EPC000101' },
    { serialNumber: 'EPC000103', tripped: false, reactionMs: null, trippedBy: null },
  ],
  unreachable: [{ serialNumber: 'EPC000104', reason: 'not attached to this computer' }],
};

const EVERY_REASON: FunctionTestFailReason[] = [
  { kind: 'notDone', ended: 'stopped' },
  { kind: 'notDone', ended: 'timed-out' },
  { kind: 'noPress' },
  { kind: 'didNotTrip', serial: 'EPC000103' },
  { kind: 'notWatched', serial: 'EPC000104', why: 'not attached to this computer' },
  { kind: 'technicianFailed' },
];

describe('a function test in words', () => {
  it('says in English what the core said before: the reactions and the verdict reasons', () => {
    expect(describeReactions(observation)).toBe('EPC000102 1204 ms, EPC000103 did not trip, EPC000104 not watched');
    expect(reactionsText({ receivers: [], unreachable: [] })).toBe('no receivers in the configuration');
    expect(verdictOf(observation, 'fail').reasons).toEqual([
      'EPC000103 did not trip',
      'EPC000104 could not be watched (not attached to this computer)',
      'the technician judged it failed',
    ]);
    expect(EVERY_REASON.slice(0, 3).map((reason) => functionTestReasonText(reason))).toEqual([
      'not done: stopped',
      'not done: timed out',
      'no press of the E-stop was seen',
    ]);
  });

  it('says them in German, the serial numbers, milliseconds and the link message as they are', () => {
    const german = createTranslator('de');
    expect(reactionsText(observation, german)).toBe(
      'EPC000102 1204 ms, EPC000103 hat nicht ausgelöst, EPC000104 nicht beobachtet',
    );
    expect(functionTestReasonsText(failReasonsOf(observation, 'fail'), german)).toBe(
      'EPC000103 hat nicht ausgelöst; EPC000104 konnte nicht beobachtet werden (not attached to this computer); der Techniker hat die Prüfung als nicht bestanden beurteilt',
    );
    expect(functionTestReasonText({ kind: 'noPress' }, german)).toBe('es wurde kein Druck auf den Not-Halt gesehen');
  });

  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    it(`has words for every reason in ${language}`, () => {
      const words = createTranslator(language);
      for (const reason of EVERY_REASON) {
        const said = functionTestReasonText(reason, words);
        expect(said, reason.kind).not.toBe(functionTestReasonText(reason));
        expect(said).not.toMatch(/core:|\{|\}/);
        if ('serial' in reason) expect(said).toContain(reason.serial);
      }
      expect(reactionsText(observation, words)).toContain('1204 ms');
    });
  }
});
