import { englishWords, type Words } from './domain-words';

/**
 * What a function test observed and why its verdict failed, as codes and values: the function
 * test core decides them (main/features/function-test/record.ts) and keeps its English words in
 * the ledger, `--json` and logs; the CLI and the screens say them in the reader's language from
 * the core catalog (`core:functionTest.*`). Serial numbers and milliseconds are data and stay as
 * they are; why a receiver could not be watched is the link's own message.
 */
export type FunctionTestFailReason =
  /** The watch ended without a press: the technician stopped it, or the wait for the press ran out. */
  | { kind: 'notDone'; ended: 'stopped' | 'timed-out' }
  | { kind: 'noPress' }
  | { kind: 'didNotTrip'; serial: string }
  | { kind: 'notWatched'; serial: string; why: string }
  | { kind: 'technicianFailed' };

/** One receiver as the test saw it, and the receivers it could not watch. */
export interface ObservedReactions {
  receivers: ReadonlyArray<{ serialNumber: string; tripped: boolean; reactionMs: number | null }>;
  unreachable: ReadonlyArray<{ serialNumber: string }>;
}

/** One reason in words: English by default, the core's own sentence ("EPC000103 did not trip"). */
export function functionTestReasonText(reason: FunctionTestFailReason, words: Words = englishWords()): string {
  switch (reason.kind) {
    case 'notDone':
      return words.t('core:functionTest.notDone', { ended: reason.ended });
    case 'didNotTrip':
      return words.t('core:functionTest.didNotTrip', { serial: reason.serial });
    case 'notWatched':
      return words.t('core:functionTest.notWatched', { serial: reason.serial, why: reason.why });
    default:
      return words.t(`core:functionTest.${reason.kind}`);
  }
}

/** How a test not done ended, alone ("stopped", "timed out"): for a sentence that says the rest. */
export function notDoneHowText(
  reason: Extract<FunctionTestFailReason, { kind: 'notDone' }>,
  words: Words = englishWords(),
): string {
  return words.t('core:functionTest.notDoneHow', { ended: reason.ended });
}

/** Every reason, joined as the language joins clauses ("; " in English, "；" in Chinese). */
export function functionTestReasonsText(
  reasons: readonly FunctionTestFailReason[],
  words: Words = englishWords(),
): string {
  return reasons
    .map((reason) => functionTestReasonText(reason, words))
    .join(words.t('core:functionTest.reasonSeparator'));
}

/**
 * "EPC000102 14 ms, EPC000103 did not trip, EPC000104 not watched", or that the configuration has
 * no receivers. The milliseconds are written as measured, never grouped.
 */
export function reactionsText(observation: ObservedReactions, words: Words = englishWords()): string {
  const parts = observation.receivers.map((receiver) =>
    receiver.tripped
      ? words.t('core:functionTest.reacted', { serial: receiver.serialNumber, ms: String(receiver.reactionMs) })
      : words.t('core:functionTest.didNotTrip', { serial: receiver.serialNumber }),
  );
  for (const missing of observation.unreachable)
    parts.push(words.t('core:functionTest.reactionNotWatched', { serial: missing.serialNumber }));
  return parts.length > 0
    ? parts.join(words.t('core:functionTest.reactionSeparator'))
    : words.t('core:functionTest.noReceivers');
}
