import { stationAdviceText } from '../../domain/station-advice';
import { keptApartText } from '../../domain/station-kept-apart';
import type { StationLaneView } from '../../contract/index';
import { jobFailureText, phaseText } from '../../domain/job-text';
import { englishWords, type Words } from '../format/words';
import { resultText } from '../workbench/step-words';

/**
 * A Station tile's headline and what to do, in the reader's language, from the lane's state, phase
 * and percent (main/features/station/tile-text.ts makes the same words in English for the CLI and
 * --json, which never change with the language). Why a lane failed and the core's other details
 * come as the core says them.
 */
export interface TileWords {
  headline: string;
  detail: string | null;
  action: string | null;
}

/** The core's headline for a lane it keeps apart (its parameters differ): the view has no flag of its own for it. */
const KEPT_APART = /^Failed: parameters differ/;

export function tileWords(lane: StationLaneView, words: Words = englishWords()): TileWords {
  switch (lane.state) {
    case 'waiting':
      return { headline: words.t('station:tile.waiting'), detail: lane.detail, action: lane.action };
    case 'in-sync':
      return {
        headline: words.t('station:tile.inSync'),
        detail: holds(lane, words),
        action: words.t('station:tile.leftAlone'),
      };
    case 'done':
      // The job's own result when it has one (it says a resumed upload too), else what the device holds now.
      return {
        headline: words.t('station:tile.done'),
        detail: lane.detail ? resultText(lane.detail, words) : holds(lane, words),
        action: words.t('station:tile.unplug'),
      };
    case 'failed':
      return {
        headline:
          lane.keptApart || KEPT_APART.test(lane.headline)
            ? words.t('station:tile.keptApart')
            : words.t('station:tile.failed'),
        // Why, in the reader's words when the core sent it as codes and values.
        detail: lane.keptApart
          ? keptApartText(lane.keptApart, words)
          : (lane.failureReason && jobFailureText(lane.failureReason, lane.errorCode, words)) || lane.detail,
        action: lane.advice ? stationAdviceText(lane.advice, words) : lane.action,
      };
    case 'working': {
      const detail = lane.present ? lane.detail : words.t('station:tile.unplugged');
      if (lane.phase === null || lane.step === null)
        return { headline: words.t('station:tile.starting'), detail, action: null };
      const doing = phaseText(lane.phase, lane.step, { version: lane.firmwareVersion }, words);
      const headline =
        lane.percent === null
          ? doing
          : words.t('station:tile.percent', { doing, percent: Math.floor(lane.percent) / 100 });
      return { headline, detail, action: null };
    }
  }
}

/** What a finished lane's device runs now, from the lane's own figures: its firmware and its configuration's syncId. */
function holds(lane: StationLaneView, words: Words): string | null {
  if (lane.firmwareVersion === null && lane.syncId === null) return lane.detail;
  return words.t('station:tile.holds', { version: lane.firmwareVersion ?? 'none', syncId: lane.syncId ?? 'none' });
}
