import { violation, type Violation } from './violations';

/**
 * The window an applyTimeStamp must fall in. Confirmations arrive late (an outbox replays them
 * days after the apply), so nothing in the past since the product exists is refused; but a time
 * before it (a clock reset to 1970) or more than a day ahead of the service's clock (a wrong clock,
 * or a confirmation dated ahead so that it can never be replaced, since an older one never
 * replaces a newer) is refused: the deploy status would rest on it.
 */
export const EARLIEST_APPLY_TIME = '2020-01-01T00:00:00Z';
export const APPLY_TIME_MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** APPLY_TIME_OUT_OF_RANGE when `applyTimeStamp` (a valid date-time) is outside the window at `now`. */
export function checkApplyTime(applyTimeStamp: string, now: Date, field = 'applyTimeStamp'): Violation[] {
  const at = Date.parse(applyTimeStamp);
  if (at < Date.parse(EARLIEST_APPLY_TIME)) {
    return [
      violation(
        'APPLY_TIME_OUT_OF_RANGE',
        field,
        `The apply time ${applyTimeStamp} is before ${EARLIEST_APPLY_TIME}: check the clock of the computer that applied it.`,
      ),
    ];
  }
  if (at > now.getTime() + APPLY_TIME_MAX_AHEAD_MS) {
    return [
      violation(
        'APPLY_TIME_OUT_OF_RANGE',
        field,
        `The apply time ${applyTimeStamp} is more than a day ahead of the service's clock (${now.toISOString()}): check the clock of the computer that applied it.`,
      ),
    ];
  }
  return [];
}
