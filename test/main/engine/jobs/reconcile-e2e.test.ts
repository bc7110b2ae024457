import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, logInCli, registerDevices, results, worldPerTest, type World } from './helpers/world';
import { applyConfiguration } from '../../hosts/cli/helpers/applied-configuration';

/**
 * Applied means observed, end to end through the real CLI over pty links with simulated devices:
 * what a device runs reaches the service whenever a workstation reads it, also after the CLI was
 * killed between apply and confirmation, also when no job had anything to install; and
 * `device verify` says where a device and the service disagree, changing nothing but the ledger,
 * which keeps each verify as a provisioning action: who looked, when, and what was seen. The CLI
 * that is killed is the real `provisioner` process; the other commands run the CLI's main in this
 * process (world.cliInProcess): the same commands and answers without two seconds of start-up each.
 */

const startWorld = worldPerTest();

/** A world whose service knows EPC000101 (with no version recorded yet), the CLI logged in to it. */
async function startWorldKnowingEpc(name: string): Promise<World> {
  const w = await startWorld(name);
  await registerDevices(w, ['EPC000101']);
  await logInCli(w);
  return w;
}

async function record(w: World, serialNumber: string) {
  return (await w.client.devices.list({ serial: serialNumber })).items[0]!;
}

async function confirmationCount(w: World, serialNumber: string): Promise<number> {
  const { rows } = await w.service!.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1',
    [serialNumber],
  );
  return rows[0]?.n ?? 0;
}

/** Resolves once `check` holds, looking every 20 ms; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the CLI is killed after the device applied the firmware', () => {
  it(
    'leaves the job to the next contact: `device list` finds the new version and the service then reports it',
    { timeout: 300_000 },
    async () => {
      const w = await startWorldKnowingEpc('killed-after-apply');
      // A slow restart: the CLI waits for it, and is killed meanwhile, after the device installed the image.
      const device = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        rebootMs: 3_000,
      });
      const bootBefore = device.state().bootId;

      let killing: Promise<void> | undefined;
      const killed = await w.cli(['--json', 'device', 'firmware', 'update', 'EPC000101'], {
        onLine: (line: string, child: ChildProcess) => {
          if (killing || !line.startsWith('{')) return;
          const event = JSON.parse(line) as { event: string; job?: { phase: string } };
          if (event.job?.phase !== 'applying') return;
          killing = until(() => device.state().firmwareVersion === '1.1.0').then(() => {
            child.kill('SIGKILL');
          });
        },
      });
      await killing;
      expect(killing, 'the job reached the apply').toBeDefined();
      expect(killed.code).not.toBe(0);
      expect(results(killed)).toEqual([]);
      expect(device.state().firmwareVersion).toBe('1.1.0');
      // Nothing reached the service: the process died before it could confirm.
      expect((await record(w, 'EPC000101')).firmwareVersion).toBeNull();

      await until(() => device.state().bootId > bootBefore);
      const listed = await w.cliInProcess(['--json', 'device', 'list']);
      expect(listed.code, listed.stderr).toBe(0);
      const [row] = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
      expect(row).toMatchObject({
        serialNumber: 'EPC000101',
        firmwareVersion: '1.1.0',
        confirmation: 'sent',
        interruptedJobs: [expect.objectContaining({ kind: 'firmware', success: true })],
      });

      const after = await record(w, 'EPC000101');
      expect(after.firmwareVersion).toBe('1.1.0');
      expect(after.lastFirmwareApply).toMatchObject({
        success: true,
        firmwareVersion: '1.1.0',
        reason: 'job-result',
        workstation: expect.any(String),
        observedAt: expect.any(String),
      });
      expect(await confirmationCount(w, 'EPC000101')).toBe(1);

      // Listed again: nothing more to say, and the interrupted job is not judged twice.
      const again = await w.cliInProcess(['--json', 'device', 'list']);
      expect(JSON.parse(again.stdout)).toEqual([
        expect.objectContaining({ serialNumber: 'EPC000101', confirmation: 'none', interruptedJobs: [] }),
      ]);
      expect(await confirmationCount(w, 'EPC000101')).toBe(1);
    },
  );
});

describe('a device already on the latest firmware that the service does not know of', () => {
  it(
    'is not touched by `device firmware update`, and the service learns its version',
    { timeout: 300_000 },
    async () => {
      const w = await startWorldKnowingEpc('up-to-date-observed');
      const device = await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000101',
        link: 'pty',
        firmwareVersion: '1.1.0',
      });
      const bootBefore = device.state().bootId;
      expect((await record(w, 'EPC000101')).firmwareVersion).toBeNull();

      const run = await w.cliInProcess(['device', 'firmware', 'update', 'EPC000101']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('EPC000101: already runs firmware 1.1.0; nothing sent; confirmed to the service');
      expect(device.state().bootId).toBe(bootBefore);

      const after = await record(w, 'EPC000101');
      expect(after.firmwareVersion).toBe('1.1.0');
      expect(after.lastFirmwareApply).toMatchObject({ success: true, firmwareVersion: '1.1.0', reason: 'observation' });

      // Run again: the service knows; nothing is confirmed twice.
      const again = await w.cliInProcess(['device', 'firmware', 'update', 'EPC000101']);
      expect(again.stdout).toContain('EPC000101: already runs firmware 1.1.0; nothing sent');
      expect(again.stdout).not.toContain('confirmed to the service');
      expect(await confirmationCount(w, 'EPC000101')).toBe(1);
    },
  );
});

describe('device verify', () => {
  it(
    'says in sync, then configuration drift once the configuration changed, with exit code 1, changing nothing but the ledger, which keeps each verify',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('verify-drift');
      const { configurationId } = await applyConfiguration(w, [{ serialNumber: 'EPC000101' }]);

      const clean = await w.cliInProcess(['device', 'verify', 'EPC000101']);
      expect(clean.code, clean.stderr).toBe(0);
      expect(clean.stdout).toMatch(/^EPC000101: in sync \(last observed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/m);
      const held = (await record(w, 'EPC000101')).deployedSyncId!;

      // The configuration changes and its new file is issued: the device still holds the old one.
      await w.client.configurations.update(configurationId, { timeoutConfiguration: '3000ms' });
      const expected = (await w.client.devices.fetchConfigurationFile('EPC000101')).syncId!;
      expect(expected).not.toBe(held);
      const confirmationsBefore = await confirmationCount(w, 'EPC000101');

      const drift = await w.cliInProcess(['device', 'verify', 'EPC000101']);
      expect(drift.code).toBe(1);
      expect(drift.stdout).toContain(
        `EPC000101: configuration drift (device has syncId ${held}, service expects ${expected})`,
      );

      // Each verify is a provisioning action the ledger keeps, the in-sync one a success and the
      // drifted one a failure with what was seen; the service keeps both.
      // The apply is followed by its parameter verification (issue 26), which matched.
      const all = await ledgerEntries(w);
      expect(all.map((e) => [e.action, e.outcome])).toEqual([
        ['configuration-apply', 'success'],
        ['parameter-verification', 'success'],
        ['verify', 'success'],
        ['verify', 'failure'],
      ]);
      const entries = all.filter((e) => e.action !== 'parameter-verification');
      expect(entries[1]!.facts).toMatchObject({ state: 'in-sync', syncId: entries[0]!.facts.syncId });
      expect(entries[2]!.facts.state).not.toBe('in-sync');
      expect(entries[2]!.error).toMatch(/configuration/);
      const { rows } = await w.service!.db.query<{ action: string }>(
        "SELECT entry->>'action' AS action FROM ledger_entries WHERE serial_number = 'EPC000101' ORDER BY org_seq",
      );
      expect(rows.map((r) => r.action)).toEqual(['configuration-apply', 'parameter-verification', 'verify', 'verify']);

      const json = await w.cliInProcess(['--json', 'device', 'verify', '--all']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual([
        expect.objectContaining({
          serialNumber: 'EPC000101',
          state: 'drift',
          configSyncId: held,
          expectedSyncId: expected,
          firmwareVersion: '1.1.0',
          expectedFirmwareVersion: '1.1.0',
        }),
      ]);

      // Verify only reads: no confirmation, nothing in the outbox.
      expect(await confirmationCount(w, 'EPC000101')).toBe(confirmationsBefore);
      expect(JSON.parse((await w.cliInProcess(['--json', 'outbox', 'list'])).stdout)).toEqual([]);
      // A device that is not attached is not in sync either.
      const missing = await w.cliInProcess(['device', 'verify', 'EPC000101', 'EPC000102']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('EPC000102: not attached');
    },
  );
});
