import { describe, expect, it } from 'vitest';
import { sendControlCommand } from '../../../../simulator/device/control-socket';
import { ledgerEntries, worldPerTest } from '../../engine/jobs/helpers/world';
import { applyConfiguration, confirmParameters } from './helpers/applied-configuration';

/**
 * The function test end to end: simulated devices of one configuration, the E-stop pressed through
 * the device's control socket, then by the simulator's own technician (--press-estop-after-ms), and
 * a receiver missing. Each result is in the ledger; the failed one leaves the device not commissioned.
 */

const startWorld = worldPerTest();

describe('provisioner device function-test', () => {
  it(
    'records the press, the reaction time each receiver showed and the verdict; a missing receiver fails it',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('function-test');
      const { devices } = await applyConfiguration(w, [{ serialNumber: 'EPC000101' }, { serialNumber: 'EPC000102' }]);
      const [sender, receiver] = [devices[0]!, devices[1]!];
      await confirmParameters(w, 'EPC000101');

      // 1. The technician's hand, through the control socket, once the app watches.
      const pressed: Promise<unknown>[] = [];
      const byHand = await w.cli(
        ['device', 'function-test', 'EPC000101', '--result', 'pass', '--note', 'lamp off, conveyor stopped'],
        {
          onLine: (line) => {
            if (line.startsWith('Press the E-stop on EPC000101'))
              pressed.push(sendControlCommand(sender.descriptor.controlSocket!, { command: 'press-estop' }));
          },
        },
      );
      expect(byHand.code, byHand.stdout + byHand.stderr).toBe(0);
      expect(await Promise.all(pressed)).toEqual([{ ok: true, presses: 1 }]);
      expect(byHand.stdout).toMatch(/EPC000101: function test PASSED: EPC000102 \d+ ms\./);
      expect(byHand.stdout).toContain('EPC000101 is commissioned (parameters verified, function test passed)');

      // `device list` says which step each device still needs: EPC000102's parameters were never confirmed, nor was it tested.
      const listed = await w.cli(['--json', 'device', 'list']);
      const commissioning = Object.fromEntries(
        (JSON.parse(listed.stdout) as { serialNumber: string; commissioning: unknown }[]).map((d) => [
          d.serialNumber,
          d.commissioning,
        ]),
      );
      expect(commissioning).toEqual({
        EPC000101: { state: 'commissioned', missing: [] },
        EPC000102: { state: 'unverified', missing: ['parameter verification', 'function test'] },
      });
      const table = await w.cli(['device', 'list']);
      expect(table.stdout).toMatch(/EPC000102 .*needs parameters, function test/);

      // 2. The simulator's technician presses by itself 200 ms after the app starts watching.
      await sender.stop();
      const selfPressing = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        pressEstopAfterMs: 200,
      });
      const json = await w.cli(['--json', 'device', 'function-test', 'EPC000101', '--result', 'pass']);
      expect(json.code, json.stderr).toBe(0);
      const result = json.stdout
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              event: string;
              result?: string;
              observation?: {
                receivers: { serialNumber: string; tripped: boolean; reactionMs: number; trippedBy: string }[];
              };
            },
        )
        .find((e) => e.event === 'result');
      expect(result?.result).toBe('pass');
      expect(result?.observation?.receivers).toEqual([
        { serialNumber: 'EPC000102', tripped: true, reactionMs: expect.any(Number), trippedBy: 'EPC000101' },
      ]);

      // 3. The receiver is gone: the test fails whatever the technician says, and is kept.
      await receiver.stop();
      const missing = await w.cli([
        'device',
        'function-test',
        'EPC000101',
        '--result',
        'pass',
        '--note',
        'receiver cabinet unpowered',
      ]);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toContain('EPC000101: function test FAILED');
      expect(missing.stdout).toContain('EPC000102 could not be watched (not attached to this computer)');
      expect(missing.stdout).toContain('EPC000101 is NOT commissioned: the function test failed');
      // In German: what was observed and why it failed, from the core's codes (issue 29); the
      // serial numbers, and the link's own message, as they are.
      const german = await w.cli(['--lang', 'de', 'device', 'function-test', 'EPC000101', '--result', 'fail']);
      expect(german.code).toBe(1);
      expect(german.stdout).toContain('EPC000102 nicht beobachtet');
      expect(german.stdout).toContain(
        'Grund: EPC000102 konnte nicht beobachtet werden (not attached to this computer); der Techniker hat die Prüfung als nicht bestanden beurteilt',
      );
      expect(german.stdout).not.toMatch(/could not be watched|not watched|judged it failed/);
      await selfPressing.stop();

      const entries = await ledgerEntries(w);
      const tests = entries.filter((e) => e.action === 'function-test');
      expect(
        tests.map((e) => [e.serialNumber, e.outcome, e.facts.receiversTripped, e.facts.receiversExpected]),
      ).toEqual([
        ['EPC000101', 'success', 1, 1],
        ['EPC000101', 'success', 1, 1],
        ['EPC000101', 'failure', 0, 1],
        ['EPC000101', 'failure', 0, 1],
      ]);
      expect(tests[0]!.facts.note).toBe('lamp off, conveyor stopped');
      expect(tests[0]!.facts.maxReactionMs).toBeGreaterThanOrEqual(0);
      expect(tests[2]!.error).toMatch(/EPC000102 could not be watched/);
      const applied = entries.find((e) => e.action === 'configuration-apply' && e.serialNumber === 'EPC000101');
      expect(tests[0]!.facts.syncId).toBeTruthy();
      expect(applied).toBeDefined();

      // The service's chain holds the tests too.
      const verify = await w.cli(['--json', 'ledger', 'verify']);
      expect(verify.code, verify.stdout).toBe(0);
      expect(JSON.parse(verify.stdout)).toMatchObject({
        ok: true,
        service: { chain: { ok: true, entries: entries.length } },
      });
    },
  );
});
