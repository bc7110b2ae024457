import { describe, expect, it } from 'vitest';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlowAndLogIn } from '../../engine/jobs/helpers/flows';
import { ledgerEntries, worldPerTest } from '../../engine/jobs/helpers/world';

/**
 * Issue 26 end to end over pty links through the CLI: the parameters a device runs are read back
 * after an apply and compared with what its file intends; a person confirms them by typing the
 * running checksum; a device that stored its safety timeout wrongly (the simulator's
 * --fault-param-drift) is in sync by syncId yet fails, and the ledger keeps both.
 */

const startWorld = worldPerTest();

interface TableJson {
  serialNumber: string;
  match: boolean;
  rows: { key: string; label: string; unit: string; intended: unknown; running: unknown; match: boolean }[];
  runningChecksum: string;
  runningChecksumShort: string;
  intendedChecksumShort: string;
  checksumBy: string;
}

describe('parameter verification through the CLI', () => {
  it(
    'confirms only the right checksum of a matching device, and catches a drifted safety timeout',
    { timeout: 300_000 },
    async () => {
      const w = await startWorld('parameter-verification');
      const configurationId = await buildFlowAndLogIn(w, epcToEpcOverEthernet);
      await w.startDevice({ deviceType: 'EPC', serialNumber: 'EPC000101', link: 'pty', firmwareVersion: '1.1.0' });
      await w.startDevice({
        deviceType: 'EPC',
        serialNumber: 'EPC000102',
        link: 'pty',
        firmwareVersion: '1.1.0',
        faults: { paramDrift: 'safety.timeout=1024' },
      });

      // A good device, a wrong checksum typed: the apply stands, the confirmation is refused.
      const wrong = await w.cli([
        'device',
        'configuration',
        'update',
        'EPC000101',
        '--confirm-checksum',
        '00000000',
        '--technician',
        'Ada Lovelace',
      ]);
      expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
      expect(wrong.stdout).toContain('EPC000101: parameters match the configuration');
      // Each group once: a peer's role stands under "Device and peers", after the list of peers.
      expect(wrong.stdout.match(/^ {2}Device and peers$/gm)).toHaveLength(1);
      expect(wrong.stdout).toMatch(
        /Peer device ids\s+EPC000102\s+EPC000102\n\s+Role of peer EPC000102\s+Receiver\s+Receiver/,
      );
      expect(wrong.stdout).toMatch(/Safety timeout\s+500 ms\s+500 ms/);
      expect(wrong.stderr).toMatch(/confirmation refused: That is not the checksum the device reports/);

      // The table and checksums, as a script reads them.
      const verify = await w.cli(['--json', 'device', 'verify', 'EPC000101', '--parameters']);
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const [table] = JSON.parse(verify.stdout) as TableJson[];
      expect(table).toMatchObject({ serialNumber: 'EPC000101', match: true, checksumBy: 'device' });
      expect(table!.intendedChecksumShort).toBe(table!.runningChecksumShort);
      expect(table!.rows.find((row) => row.key === 'device.serialNumber')).toMatchObject({
        intended: 'EPC000101',
        running: 'EPC000101',
        match: true,
      });

      // The right checksum, typed in lower case: taken (the file in force is not sent again, its parameters are read back).
      const right = await w.cli([
        'device',
        'configuration',
        'update',
        'EPC000101',
        '--confirm-checksum',
        table!.runningChecksumShort.toLowerCase(),
        '--technician',
        'Ada Lovelace',
      ]);
      expect(right.code, right.stdout + right.stderr).toBe(0);
      expect(right.stdout).toContain(
        `EPC000101: parameters confirmed by Ada Lovelace (checksum ${table!.runningChecksumShort})`,
      );

      // The drifted device: in sync by syncId, its timeout 1024 ms against 500 ms; no checksum is taken.
      const drifted = await w.cli([
        'device',
        'configuration',
        'update',
        'EPC000102',
        '--confirm-checksum',
        table!.runningChecksumShort,
        '--technician',
        'Ada Lovelace',
      ]);
      expect(drifted.code, drifted.stdout + drifted.stderr).toBe(1);
      expect(drifted.stdout + drifted.stderr).toContain('PARAMETERS_MISMATCH');
      expect(drifted.stdout).toMatch(/✗ Safety timeout\s+500 ms\s+1024 ms\s+← differs/);
      expect(drifted.stdout).toContain('EPC000102: parameters DIFFER from the configuration');
      const check = await w.cli(['device', 'verify', 'EPC000102', '--parameters']);
      expect(check.code).toBe(1);
      expect(check.stdout).toMatch(/checksum running\s+[0-9A-F]{8}.*the checksums differ/);

      const entries = (await ledgerEntries(w)).filter((e) => e.action === 'parameter-verification');
      const confirmed = entries.find((e) => e.serialNumber === 'EPC000101' && e.facts.confirmedBy !== null);
      expect(confirmed).toMatchObject({
        outcome: 'success',
        facts: { confirmedBy: 'Ada Lovelace', checksumShort: table!.runningChecksumShort, toolName: 'Provisioner' },
      });
      expect(confirmed!.facts.toolBuild).toMatch(/^(commit [0-9a-f]{40}|sha256 [0-9a-f]{16}|.+)$/);
      expect(confirmed!.facts.tableDigest).toMatch(/^[0-9a-f]{64}$/);
      const failures = entries.filter((e) => e.serialNumber === 'EPC000102');
      expect(failures.length).toBeGreaterThanOrEqual(2);
      expect(failures.every((e) => e.outcome === 'failure' && e.facts.confirmedBy === null)).toBe(true);
      expect(failures[0]!.facts['p:safety.timeout']).toBe('500 → 1024');
      expect(failures[0]!.error).toMatch(/safety\.timeout/);

      // The drifted device is not commissioned, and `device list` and the report say why.
      const listed = JSON.parse((await w.cli(['--json', 'device', 'list'])).stdout) as {
        serialNumber: string;
        commissioning: { state: string };
      }[];
      expect(listed.find((d) => d.serialNumber === 'EPC000102')?.commissioning.state).toBe('parameters-differ');
      const { name } = await w.client.configurations.get(configurationId);
      const report = await w.cli(['--json', 'report', '--configuration', name, '--device', 'EPC000102']);
      expect(report.code, report.stderr).toBe(0);
      const [device] = (JSON.parse(report.stdout) as { devices: { commissioning: string; missingSteps: string[] }[] })
        .devices;
      // A mismatch fails the apply itself (the service is told so): it is to be applied and verified again.
      expect(device).toMatchObject({
        commissioning: 'parameters-differ',
        missingSteps: ['configuration apply', 'parameter verification', 'function test'],
      });
    },
  );
});
