import { describe, expect, it } from 'vitest';
import { CoalescedRun } from '../../../../main/devices/util/coalesced-run';

/** A run that waits until the test lets it finish, so requests can arrive while it runs. */
function gatedRuns() {
  const started: number[] = [];
  const gates: Array<() => void> = [];
  let failNext: Error | undefined;
  const run = () =>
    new Promise<void>((resolve, reject) => {
      started.push(started.length + 1);
      const error = failNext;
      failNext = undefined;
      gates.push(() => (error ? reject(error) : resolve()));
    });
  const finishOne = async () => {
    await waitFor(() => gates.length > 0);
    gates.shift()?.();
  };
  return { started, run, finishOne, failOnce: (error: Error) => (failNext = error) };
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let turns = 0; !condition(); turns++) {
    if (turns > 1000) throw new Error('the run never started');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('one run at a time, requests during it folded into one more', () => {
  it('runs once for a request made while idle', async () => {
    const runs = gatedRuns();
    const coalesced = new CoalescedRun(runs.run, () => false);
    const done = coalesced.request();
    await runs.finishOne();
    await done;
    expect(runs.started).toEqual([1]);
    expect(coalesced.current).toBeUndefined();
  });

  it('folds any number of requests made during a run into one more run, which every one of them waits for', async () => {
    const runs = gatedRuns();
    const coalesced = new CoalescedRun(runs.run, () => false);
    const first = coalesced.request();
    const during = [coalesced.request(), coalesced.request(), coalesced.request()];
    let duringSettled = false;
    void Promise.all(during).then(() => (duringSettled = true));
    await runs.finishOne();
    await waitFor(() => runs.started.length === 2);
    expect(duringSettled).toBe(false);
    await runs.finishOne();
    await Promise.all([first, ...during]);
    expect(runs.started).toEqual([1, 2]);
  });

  it('starts no further run once stopped', async () => {
    const runs = gatedRuns();
    let stopped = false;
    const coalesced = new CoalescedRun(runs.run, () => stopped);
    const first = coalesced.request();
    const during = coalesced.request();
    stopped = true;
    await runs.finishOne();
    await Promise.all([first, during]);
    expect(runs.started).toEqual([1]);
  });

  it('reports a failed run to its waiters and runs again on the next request', async () => {
    const runs = gatedRuns();
    const coalesced = new CoalescedRun(runs.run, () => false);
    runs.failOnce(new Error('the port list could not be read'));
    const failed = coalesced.request();
    await runs.finishOne();
    await expect(failed).rejects.toThrow('the port list could not be read');
    const next = coalesced.request();
    await runs.finishOne();
    await next;
    expect(runs.started).toEqual([1, 2]);
  });
});
