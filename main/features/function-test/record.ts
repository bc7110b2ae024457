import { originFields, type LedgerEntry, type LedgerRecord, type LedgerRecordOrigin } from '../../../domain/ledger';
import type { Ledger } from '../../engine/ledger';
import type { FunctionTestObservation } from './function-test';

/**
 * The function test's verdict and its record. What the app observed can only make a test fail: a
 * press not seen, a receiver that did not trip or could not be watched. The technician's own
 * judgment (the machine stopped, the lamp went off) can fail it too, never pass what failed.
 */

export type FunctionTestResult = 'pass' | 'fail';

export interface FunctionTestVerdict {
  result: FunctionTestResult;
  /** Why it failed, in words; empty when it passed. */
  reasons: string[];
}

export function verdictOf(
  observation: FunctionTestObservation,
  technician: FunctionTestResult | undefined,
): FunctionTestVerdict {
  const reasons: string[] = [];
  const notDone = notDoneText(observation);
  if (notDone) reasons.push(notDone);
  else if (!observation.pressed) reasons.push('no press of the E-stop was seen');
  for (const receiver of observation.receivers)
    if (observation.pressed && !receiver.tripped) reasons.push(`${receiver.serialNumber} did not trip`);
  for (const missing of observation.unreachable)
    reasons.push(`${missing.serialNumber} could not be watched (${missing.reason})`);
  if (technician === 'fail') reasons.push('the technician judged it failed');
  return { result: reasons.length === 0 ? 'pass' : 'fail', reasons };
}

/**
 * "not done: timed out" / "not done: stopped" for a watch that ended with no press, null otherwise.
 * Such a test is recorded as failed: the device is not commissioned until a test is done and passes.
 */
export function notDoneText(observation: Pick<FunctionTestObservation, 'pressed' | 'ended'>): string | null {
  if (observation.pressed) return null;
  if (observation.ended === 'stopped') return 'not done: stopped';
  if (observation.ended === 'timed-out') return 'not done: timed out';
  return null;
}

/** "EPC000102 14 ms, EPC000103 did not trip" */
export function describeReactions(observation: FunctionTestObservation): string {
  const parts = observation.receivers.map((r) =>
    r.tripped ? `${r.serialNumber} ${r.reactionMs} ms` : `${r.serialNumber} did not trip`,
  );
  for (const missing of observation.unreachable) parts.push(`${missing.serialNumber} not watched`);
  return parts.length > 0 ? parts.join(', ') : 'no receivers in the configuration';
}

export interface FunctionTestRecordInput extends LedgerRecordOrigin {
  serialNumber: string;
  observation: FunctionTestObservation;
  verdict: FunctionTestVerdict;
  note: string;
  /** What the device runs, as it reported it: the test is about this configuration. */
  syncId: string | null;
  configurationName: string | null;
  at: Date;
}

export function functionTestRecord(input: FunctionTestRecordInput): LedgerRecord {
  const { observation } = input;
  const notDone = notDoneText(observation);
  const reactions = observation.receivers.flatMap((r) => (r.reactionMs === null ? [] : [r.reactionMs]));
  return {
    at: input.at.toISOString(),
    action: 'function-test',
    outcome: input.verdict.result === 'pass' ? 'success' : 'failure',
    serialNumber: input.serialNumber,
    ...originFields(input),
    facts: {
      result: input.verdict.result,
      ...(notDone ? { notDone } : {}),
      note: input.note.slice(0, 2000),
      pressedAt: observation.pressedAt,
      receivers: describeReactions(observation).slice(0, 2000),
      receiversTripped: observation.receivers.filter((r) => r.tripped).length,
      receiversExpected: observation.receivers.length + observation.unreachable.length,
      maxReactionMs: reactions.length > 0 ? Math.max(...reactions) : null,
      syncId: input.syncId,
      configurationName: input.configurationName,
    },
    ...(input.verdict.reasons.length > 0 ? { error: input.verdict.reasons.join('; ').slice(0, 2000) } : {}),
  };
}

export function recordFunctionTest(
  ledger: Pick<Ledger, 'append'>,
  input: FunctionTestRecordInput,
): Promise<LedgerEntry> {
  return ledger.append(functionTestRecord(input));
}
