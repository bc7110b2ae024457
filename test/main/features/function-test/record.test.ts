import { describe, expect, it } from 'vitest';
import { functionTestRecord, notDoneText, verdictOf } from '../../../../main/features/function-test';
import type { FunctionTestObservation } from '../../../../main/features/function-test';

const seen: FunctionTestObservation = {
  pressed: true,
  ended: 'pressed',
  pressedAt: '2026-11-25T10:00:00.000Z',
  receivers: [
    { serialNumber: 'EPC000102', tripped: true, reactionMs: 14, trippedBy: 'EPC000101' },
    { serialNumber: 'EPC000103', tripped: true, reactionMs: 22, trippedBy: 'EPC000101' },
  ],
  unreachable: [],
};

describe('the function test verdict', () => {
  it('passes only what was observed whole and the technician passes', () => {
    expect(verdictOf(seen, 'pass')).toEqual({ result: 'pass', reasons: [] });
    expect(verdictOf(seen, 'fail')).toEqual({ result: 'fail', reasons: ['the technician judged it failed'] });
  });

  it('fails a test without a press, with a receiver that did not trip or was not watched, whatever the technician says', () => {
    expect(verdictOf({ ...seen, pressed: false }, 'pass').reasons).toEqual(['no press of the E-stop was seen']);
    const oneQuiet = {
      ...seen,
      receivers: [seen.receivers[0]!, { serialNumber: 'EPC000103', tripped: false, reactionMs: null, trippedBy: null }],
    };
    expect(verdictOf(oneQuiet, 'pass')).toEqual({ result: 'fail', reasons: ['EPC000103 did not trip'] });
    expect(
      verdictOf(
        { ...seen, unreachable: [{ serialNumber: 'EPC000104', reason: 'not attached to this computer' }] },
        'pass',
      ).result,
    ).toBe('fail');
  });

  it('records the slowest reaction, the counts and the note', () => {
    const record = functionTestRecord({
      serialNumber: 'EPC000101',
      workstation: 'ws-1',
      observation: seen,
      verdict: verdictOf(seen, 'pass'),
      note: 'lamp off',
      syncId: null,
      configurationName: 'Line 1',
      at: new Date('2026-11-25T10:00:01Z'),
    });
    expect(record).toMatchObject({
      action: 'function-test',
      outcome: 'success',
      facts: {
        maxReactionMs: 22,
        receiversTripped: 2,
        receiversExpected: 2,
        note: 'lamp off',
        receivers: 'EPC000102 14 ms, EPC000103 22 ms',
      },
    });
    expect(record).not.toHaveProperty('error');
  });

  it('records a test that timed out or was stopped before any press as not done, a failure', () => {
    for (const [ended, text] of [
      ['timed-out', 'not done: timed out'],
      ['stopped', 'not done: stopped'],
    ] as const) {
      const quiet: FunctionTestObservation = {
        ...seen,
        pressed: false,
        pressedAt: null,
        ended,
        receivers: seen.receivers.map((r) => ({ ...r, tripped: false, reactionMs: null })),
      };
      expect(notDoneText(quiet)).toBe(text);
      // The technician cannot pass it, and says nothing: it fails as not done, for that reason alone.
      expect(verdictOf(quiet, 'pass').reasons).toEqual([text]);
      const record = functionTestRecord({
        serialNumber: 'EPC000101',
        workstation: 'ws-1',
        observation: quiet,
        verdict: verdictOf(quiet, undefined),
        note: '',
        syncId: null,
        configurationName: 'Line 1',
        at: new Date('2026-11-25T10:00:01Z'),
      });
      expect(record).toMatchObject({
        action: 'function-test',
        outcome: 'failure',
        error: text,
        facts: { result: 'fail', notDone: text, receiversTripped: 0 },
      });
    }
    expect(notDoneText(seen)).toBeNull();
  });
});
