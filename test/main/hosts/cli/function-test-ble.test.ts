import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { World } from '../../app/jobs/helpers/world';
import { startAppliedConfiguration } from './helpers/applied-configuration';

/**
 * The function test when the devices are reached over BLE: the CLI finds them through the
 * simulator's radio (served to its process), watches the device under test and its receiver over
 * it, sees the press and the trip, and records the reaction time it observed.
 */

let world: World | undefined;
afterAll(async () => {
  await world?.dispose();
});

interface ResultEvent {
  event: string;
  result?: string;
  observation?: { pressed: boolean; receivers: { serialNumber: string; tripped: boolean; reactionMs: number | null; trippedBy: string | null }[]; unreachable: unknown[] };
  ledgerHash?: string;
}

describe('provisioner device function-test over BLE', () => {
  it('watches the device and its receiver over BLE and records the reaction it saw', { timeout: 300_000 }, async () => {
    const opened = await startAppliedConfiguration('function-test-ble', [
      { serialNumber: 'EPC000102', link: 'ble' },
      // The simulator's technician presses 200 ms after the app starts watching.
      { serialNumber: 'EPC000101', link: 'ble', pressEstopAfterMs: 200 },
    ]);
    world = opened.world;
    expect(opened.devices.map((d) => d.descriptor.link)).toEqual(['ble', 'ble']);

    const run = await world.cli(['--json', 'device', 'function-test', 'EPC000101', '--result', 'pass']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const events = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ResultEvent);
    expect(events.find((e) => e.event === 'ready')).toMatchObject({ serialNumber: 'EPC000101', receivers: ['EPC000102'] });
    const result = events.find((e) => e.event === 'result')!;
    expect(result.result).toBe('pass');
    expect(result.observation).toMatchObject({ pressed: true, unreachable: [] });
    expect(result.observation!.receivers).toEqual([{ serialNumber: 'EPC000102', tripped: true, reactionMs: expect.any(Number), trippedBy: 'EPC000101' }]);

    const entries = (await readFile(join(world.home, 'data', 'ledger', 'ledger.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; outcome: string; hash: string; facts: { receiversTripped?: number } });
    const test = entries.findLast((e) => e.action === 'function-test')!;
    expect(test).toMatchObject({ outcome: 'success', hash: result.ledgerHash, facts: { receiversTripped: 1 } });
  });
});
