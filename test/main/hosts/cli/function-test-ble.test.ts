import { describe, expect, it } from 'vitest';
import { ledgerEntries, worldPerTest } from '../../engine/jobs/helpers/world';
import { applyConfiguration } from './helpers/applied-configuration';

/**
 * The function test when the devices are reached over BLE: the CLI finds them through the
 * simulator's radio (served to its process), watches the device under test and its receiver over
 * it, sees the press and the trip, and records the reaction time it observed.
 */

const startWorld = worldPerTest();

interface ResultEvent {
  event: string;
  result?: string;
  observation?: {
    pressed: boolean;
    receivers: { serialNumber: string; tripped: boolean; reactionMs: number | null; trippedBy: string | null }[];
    unreachable: unknown[];
  };
  ledgerHash?: string;
}

describe('provisioner device function-test over BLE', () => {
  it('watches the device and its receiver over BLE and records the reaction it saw', { timeout: 300_000 }, async () => {
    const world = await startWorld('function-test-ble');
    const applied = await applyConfiguration(world, [
      { serialNumber: 'EPC000102', link: 'ble' },
      // The simulator's technician presses 200 ms after the app starts watching.
      { serialNumber: 'EPC000101', link: 'ble', pressEstopAfterMs: 200 },
    ]);
    expect(applied.devices.map((d) => d.descriptor.link)).toEqual(['ble', 'ble']);

    const run = await world.cli(['--json', 'device', 'function-test', 'EPC000101', '--result', 'pass']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ResultEvent);
    expect(events.find((e) => e.event === 'ready')).toMatchObject({
      serialNumber: 'EPC000101',
      receivers: ['EPC000102'],
    });
    const result = events.find((e) => e.event === 'result')!;
    expect(result.result).toBe('pass');
    expect(result.observation).toMatchObject({ pressed: true, unreachable: [] });
    expect(result.observation!.receivers).toEqual([
      { serialNumber: 'EPC000102', tripped: true, reactionMs: expect.any(Number), trippedBy: 'EPC000101' },
    ]);

    const entries = await ledgerEntries(world);
    const test = entries.findLast((e) => e.action === 'function-test')!;
    expect(test).toMatchObject({ outcome: 'success', hash: result.ledgerHash, facts: { receiversTripped: 1 } });
  });
});
