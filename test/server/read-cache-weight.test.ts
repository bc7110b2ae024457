import { describe, expect, it } from 'vitest';
import { answerWeight, ReadCache } from '../../server/cache/read-cache';
import { noteStatement } from '../../server/db/tables';

/**
 * The read cache is bounded by what its answers weigh, not only by their count (issue 30): a
 * device's file plan names every peer of its configuration, so the plans of a large configuration
 * outgrow any count of entries.
 */

/** A file plan's shape: a device's settings, with every peer of its configuration named. */
function plan(serialNumber: string, peers: number) {
  return {
    kind: 'complete' as const,
    configurationId: 'c1',
    settings: {
      deviceType: 'EPC',
      serialNumber,
      peers: Array.from({ length: peers }, (_, i) => ({
        serialNumber: `SRCP${String(i).padStart(6, '0')}`,
        deviceType: 'SRCP',
      })),
    },
    hash: 'f'.repeat(64),
  };
}

/** Reads the plan of `serialNumber` through the cache, as the file download does (its statement names devices). */
const readPlan = (cache: ReadCache, serialNumber: string, peers: number, loads: { count: number }) =>
  cache.through(`file-plan/demo/${serialNumber}`, async () => {
    noteStatement('SELECT * FROM devices WHERE serial_number = $1');
    loads.count += 1;
    return plan(serialNumber, peers);
  });

describe('read cache weight', () => {
  it('weighs an answer by its JSON, and one without JSON as more than any budget', () => {
    expect(answerWeight({ a: 'bc' })).toBe('{"a":"bc"}'.length);
    expect(answerWeight(plan('EPC1', 300))).toBeGreaterThan(answerWeight(plan('EPC1', 3)) * 20);
    expect(answerWeight(10n)).toBe(Number.POSITIVE_INFINITY);
  });

  it('holds the plans of many devices of a large configuration within its budget, not only within its count', async () => {
    const one = answerWeight(plan('EPC000000', 150));
    // Room for 40 plans by weight, 5,000 by count.
    const budget = one * 40;
    const cache = new ReadCache(5_000, budget);
    const loads = { count: 0 };
    let highest = 0;
    for (let i = 0; i < 300; i++) {
      await readPlan(cache, `EPC${String(i).padStart(6, '0')}`, 150, loads);
      highest = Math.max(highest, cache.weight);
      expect(cache.weight).toBeLessThanOrEqual(budget);
      expect(cache.size).toBeLessThanOrEqual(40);
    }
    expect(loads.count).toBe(300);
    expect(highest).toBeGreaterThan(budget - one);
    // What is held is still answered from memory, and weighs what the cache says.
    const held = cache.size;
    expect(held).toBeGreaterThan(0);
    await readPlan(cache, 'EPC000299', 150, loads);
    expect(loads.count).toBe(300);
    expect(cache.weight).toBe(held * one);
  });

  it('gives back the weight of what a change drops, and of everything when it suspends', async () => {
    const cache = new ReadCache(5_000, 10_000_000);
    const loads = { count: 0 };
    for (let i = 0; i < 10; i++) await readPlan(cache, `EPC${i}`, 20, loads);
    const configurations = await cache.through('configurations/demo/list', async () => {
      noteStatement('SELECT * FROM configurations');
      return [{ id: 'c1', name: 'Night shift' }];
    });
    const listWeight = answerWeight(configurations);
    expect(cache.weight).toBe(10 * answerWeight(plan('EPC0', 20)) + listWeight);
    // A confirmation writes devices: the plans go, the configuration list stays.
    cache.changed(new Set(['devices', 'confirmations']));
    expect(cache.size).toBe(1);
    expect(cache.weight).toBe(listWeight);
    cache.suspend();
    expect(cache.weight).toBe(0);
    cache.resume();
    await readPlan(cache, 'EPC1', 20, loads);
    cache.clearAll();
    expect(cache.weight).toBe(0);
  });

  it('does not keep an answer heavier than the whole budget, and a key read again replaces its weight', async () => {
    const cache = new ReadCache(5_000, answerWeight(plan('EPC1', 10)) * 2);
    const loads = { count: 0 };
    await readPlan(cache, 'EPC-big', 100, loads);
    await readPlan(cache, 'EPC-big', 100, loads);
    expect(loads.count).toBe(2);
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
    await readPlan(cache, 'EPC1', 10, loads);
    cache.changed(new Set(['confirmations']));
    expect(cache.weight).toBe(answerWeight(plan('EPC1', 10)));
  });
});
