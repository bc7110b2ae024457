import { originFields, type LedgerEntry, type LedgerRecord, type LedgerRecordOrigin } from '../../../domain/ledger';
import {
  functionTestReasonText,
  reactionsText,
  type FunctionTestFailReason,
} from '../../../domain/function-test-words';
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
  /** Why it failed, in English words (the ledger, `--json`); empty when it passed. */
  reasons: string[];
}

export function verdictOf(
  observation: FunctionTestObservation,
  technician: FunctionTestResult | undefined,
): FunctionTestVerdict {
  const why = failReasonsOf(observation, technician);
  return { result: why.length === 0 ? 'pass' : 'fail', reasons: why.map((reason) => functionTestReasonText(reason)) };
}

/**
 * Why the verdict fails, as codes and values (none when it passes): the verdict's reasons, to be
 * said in the reader's language (functionTestReasonsText).
 */
export function failReasonsOf(
  observation: FunctionTestObservation,
  technician: FunctionTestResult | undefined,
): FunctionTestFailReason[] {
  const why: FunctionTestFailReason[] = [];
  const notDone = notDoneReason(observation);
  if (notDone) why.push(notDone);
  else if (!observation.pressed) why.push({ kind: 'noPress' });
  for (const receiver of observation.receivers)
    if (observation.pressed && !receiver.tripped) why.push({ kind: 'didNotTrip', serial: receiver.serialNumber });
  for (const missing of observation.unreachable)
    why.push({ kind: 'notWatched', serial: missing.serialNumber, why: missing.reason });
  if (technician === 'fail') why.push({ kind: 'technicianFailed' });
  return why;
}

/**
 * "not done: timed out" / "not done: stopped" for a watch that ended with no press, null otherwise.
 * Such a test is recorded as failed: the device is not commissioned until a test is done and passes.
 */
export function notDoneText(observation: Pick<FunctionTestObservation, 'pressed' | 'ended'>): string | null {
  const reason = notDoneReason(observation);
  return reason && functionTestReasonText(reason);
}

/** As notDoneText, as a code and its value. */
export function notDoneReason(
  observation: Pick<FunctionTestObservation, 'pressed' | 'ended'>,
): Extract<FunctionTestFailReason, { kind: 'notDone' }> | null {
  if (observation.pressed || observation.ended === 'pressed') return null;
  return { kind: 'notDone', ended: observation.ended };
}

/** "EPC000102 14 ms, EPC000103 did not trip", in English: the ledger's words (reactionsText says it in another language). */
export function describeReactions(observation: FunctionTestObservation): string {
  return reactionsText(observation);
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
