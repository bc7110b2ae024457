import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { StationEvent } from '../../../../contract/station';
import { parseLedgerText, type LedgerEntry } from '../../../../domain/ledger';
import { LEDGER_FILE } from '../../../../main/engine/ledger/ledger';
import { deviceSync, latestFirmwareByType, recordedReading } from '../../../../main/engine/jobs/device-sync';
import { parseShiftPlan, runShift, type ShiftRun } from '../../../../simulator/shift-plan';
import { srcpToEpcOverIsm } from '../../../fixtures/typical-flows';
import { buildFlowAndLogIn } from '../../engine/jobs/helpers/flows';
import { worldPerFile } from '../../engine/jobs/helpers/world';

/**
 * A shift at a station, end to end through the real `provisioner station --json` (a child
 * process) against the real service, with simulated devices plugged in and out by the simulator's
 * shift plan: both devices of "Loader 7 remote (ISM)" end in sync by the service's records, the
 * one unplugged during its firmware transfer resumes, a device of no part of the configuration is
 * refused, and a second device with a serial number already seen is flagged. The test stops the
 * station (Ctrl-C) once the plan's outcomes are all in, and reads the shift report.
 */

let shift: ShiftRun | undefined;

const world = worldPerFile('station', (opened) => buildFlowAndLogIn(opened, srcpToEpcOverIsm));
// After the world's hooks, so the shift stops before the world is disposed.
afterAll(async () => {
  await shift?.stop();
});

/**
 * What the operator does at the start of a shift: runs the station, reads the configuration's
 * parameter checksum under the table it prints, and types it. Without it the shift does not start.
 */
async function shiftChecksum(): Promise<string> {
  const run = await world().cliInProcess(['station', '--configuration', srcpToEpcOverIsm.configuration.name, '--json']);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout + run.stderr).toContain('no one confirmed the parameters of the shift');
  const shown = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event: string; checksumShort?: string; devices?: { serialNumber: string }[] })
    .find((event) => event.event === 'shift-parameters');
  expect(shown?.devices?.map((d) => d.serialNumber)).toEqual(['EPC000101', 'SRCP000101']);
  return shown!.checksumShort!;
}

/** Every entry of the ledger files under the test's directory (the CLI's data directory holds one). */
async function ledgerEntries(): Promise<LedgerEntry[]> {
  const files = (await readdir(world().root, { recursive: true })).filter((file) => file.endsWith(LEDGER_FILE));
  const texts = await Promise.all(files.map((file) => readFile(join(world().root, file), 'utf8')));
  return texts.flatMap((text) => parseLedgerText(text)).flatMap((line) => ('entry' in line ? [line.entry] : []));
}

/** The plan: the two devices of the configuration, one pulled at 24 000 bytes of its firmware; a foreign one; a copy of a serial. */
function plan() {
  return parseShiftPlan({
    defaults: {
      ptyDir: join(world().simulatorDir, 'pty'),
      releaseKeysPem: [world().releaseKey.publicKeyPem],
      baudRate: 921600,
      rebootMs: 150,
      applyMs: 50,
    },
    devices: [
      { deviceType: 'SRCP', serialNumber: 'SRCP000101' },
      { deviceType: 'EPC', serialNumber: 'EPC000101' },
      { deviceType: 'EPC', serialNumber: 'EPC000103' },
      { id: 'EPC000101-copy', deviceType: 'EPC', serialNumber: 'EPC000101' },
    ],
    plan: [
      { at: 0, plug: 'SRCP000101' },
      { unplug: 'SRCP000101', duringFirmwareAt: 24_000, for: 1500 },
      { at: 100, plug: 'EPC000101' },
      { at: 400, plug: 'EPC000103' },
      { at: 2500, plug: 'EPC000101-copy' },
    ],
  });
}

describe('provisioner station', () => {
  it(
    'provisions a simulated shift: all planned devices in sync, the unplugged one resumed, a foreign one refused, a repeated serial flagged',
    { timeout: 300_000 },
    async () => {
      const events: StationEvent[] = [];
      let planDone = false;
      let stopping = false;
      const outcomesIn = () =>
        ['SRCP000101', 'EPC000101'].every((sn) => events.some((e) => e.event === 'done' && e.serialNumber === sn)) &&
        events.some((e) => e.event === 'refused' && e.serialNumber === 'EPC000103') &&
        events.some((e) => e.event === 'duplicate' && e.serialNumber === 'EPC000101');

      const checksum = await shiftChecksum();
      const wrong = await world().cliInProcess([
        'station',
        '--configuration',
        srcpToEpcOverIsm.configuration.name,
        '--confirm-checksum',
        checksum.endsWith('0') ? `${checksum.slice(0, 7)}1` : `${checksum.slice(0, 7)}0`,
        '--operator',
        'Ola Operator',
      ]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain("That is not this configuration's parameter checksum");
      const run = await world().cli(
        [
          'station',
          '--configuration',
          srcpToEpcOverIsm.configuration.name,
          '--lanes',
          '2',
          '--json',
          '--confirm-checksum',
          checksum.toLowerCase(),
          '--operator',
          'Ola Operator',
        ],
        {
          env: { PROVISIONER_DISCOVERY: 'off' },
          onLine: (line, child) => {
            if (!line.startsWith('{')) return;
            const event = JSON.parse(line) as StationEvent;
            events.push(event);
            if (event.event === 'station-started') {
              shift = runShift({
                ...plan(),
                stateDir: join(world().root, 'shift'),
                publicKeyPem: world().publicKeyPem,
              });
              void shift.finished.then(() => {
                planDone = true;
              });
            }
            // The test's stop: Ctrl-C once every outcome of the plan has been reported.
            if (!stopping && planDone && outcomesIn()) {
              stopping = true;
              child.kill('SIGINT');
            } else if (!stopping && outcomesIn()) {
              void shift!.finished.then(() => {
                if (stopping) return;
                stopping = true;
                child.kill('SIGINT');
              });
            }
          },
        },
      );
      expect(
        events.map((e) => e.event),
        run.stderr,
      ).toContain('station-stopped');

      const of = (serialNumber: string, kind: StationEvent['event']) =>
        events.filter((e) => e.event === kind && 'serialNumber' in e && e.serialNumber === serialNumber);
      // The unplugged one: pulled once, and its upload continued from where the device kept it.
      expect(shift!.devices.get('SRCP000101')!.faultStats.pulls).toBe(1);
      const srcpDone = of('SRCP000101', 'done')[0] as Extract<StationEvent, { event: 'done' }>;
      expect(srcpDone.text).toMatch(/the upload resumed at [1-9]\d*%/);
      expect(of('SRCP000101', 'failed')).toEqual([]);
      expect(of('EPC000101', 'failed')).toEqual([]);
      // The foreign one: refused with a note, never worked on.
      expect((of('EPC000103', 'refused')[0] as Extract<StationEvent, { event: 'refused' }>).reason).toContain(
        'not in the configuration',
      );
      expect(of('EPC000103', 'lane-started')).toEqual([]);
      expect(shift!.devices.get('EPC000103')!.state().firmwareVersion).toBe('1.0.0');
      // The repeated serial: flagged once, and only one lane for it.
      expect(of('EPC000101', 'duplicate')).toHaveLength(1);
      expect(of('EPC000101', 'lane-started')).toHaveLength(1);

      // Every planned device is in sync by the service's own records.
      const latest = await latestFirmwareByType(world().client, ['SRCP', 'EPC']);
      for (const serial of ['SRCP000101', 'EPC000101']) {
        const record = (await world().client.devices.list({ serial, limit: 1 })).items[0]!;
        expect(deviceSync(recordedReading(record), record, latest.get(record.deviceType)).state, serial).toBe(
          'in-sync',
        );
        expect(record.firmwareVersion).toBe(latest.get(record.deviceType));
      }

      // Counts, yield and the shift report.
      const stopped = events.find((e) => e.event === 'station-stopped') as Extract<
        StationEvent,
        { event: 'station-stopped' }
      >;
      expect(stopped.counts).toMatchObject({ done: 2, failed: 0, working: 0, refused: 1, duplicate: 1 });
      expect(stopped.yieldPercent).toBe(100);
      const rows = parse(await readFile(stopped.report!.path, 'utf8'), { columns: true }) as Array<
        Record<string, string>
      >;
      expect(rows.map((r) => [r.serialNumber, r.result]).sort()).toEqual([
        ['EPC000101', 'done'],
        ['EPC000101', 'duplicate'],
        ['EPC000103', 'refused'],
        ['SRCP000101', 'done'],
      ]);
      expect(rows.find((r) => r.serialNumber === 'SRCP000101' && r.result === 'done')).toMatchObject({
        firmwareBefore: '1.0.0',
        firmwareAfter: latest.get('SRCP'),
        confirmation: 'sent',
      });

      // Beside it, the commissioning report of the configuration, read back as a person would.
      const commissioning = events.find((e) => (e as { event: string }).event === 'commissioning-report') as unknown as
        { path: string } | undefined;
      expect(commissioning?.path).toMatch(/-commissioning\.pdf$/);
      const { stdout: text } = await promisify(execFile)('pdftotext', ['-layout', commissioning!.path, '-']);
      for (const serial of ['SRCP000101', 'EPC000101']) expect(text).toContain(serial);

      // The ledger: the shift's confirmation names the operator and the checksum; each device's
      // automatic verification is confirmed by it.
      const entries = await ledgerEntries();
      const shiftEntries = entries.filter((e) => e.action === 'station-shift');
      expect(shiftEntries).toHaveLength(1);
      expect(shiftEntries[0]!.facts).toMatchObject({
        operator: 'Ola Operator',
        confirmedBy: 'Ola Operator',
        checksumShort: checksum,
        configurationName: srcpToEpcOverIsm.configuration.name,
        devices: 2,
      });
      for (const serial of ['SRCP000101', 'EPC000101']) {
        const verifications = entries.filter((e) => e.action === 'parameter-verification' && e.serialNumber === serial);
        expect(verifications, serial).toHaveLength(1);
        expect(verifications[0]!.outcome).toBe('success');
        expect(verifications[0]!.facts).toMatchObject({
          person: 'Ola Operator',
          confirmedBy: 'Ola Operator',
          confirmedHow: 'by shift',
          shiftChecksum: shiftEntries[0]!.facts.checksum,
        });
      }
    },
  );
  it('refuses a configuration name it does not know, naming those there are', { timeout: 120_000 }, async () => {
    const run = await world().cliInProcess(['station', '--configuration', 'Loader 9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: No configuration is named "Loader 9". There are: "${srcpToEpcOverIsm.configuration.name}".\n`,
    );
    const lanes = await world().cliInProcess(['station', '--configuration', 'x', '--lanes', '0']);
    expect(lanes.code).toBe(2);
    expect(lanes.stderr).toContain('--lanes must be a whole number of at least 1, not "0"');
  });
  it(
    'leaves the devices already in sync alone at the next shift, and still refuses the foreign one',
    { timeout: 300_000 },
    async () => {
      expect(shift, 'runs after the shift above').toBeDefined();
      // The copied serial goes away: only the devices provisioned above and the foreign one stay plugged in.
      await shift!.devices.get('EPC000101-copy')!.unplug();
      const events: StationEvent[] = [];
      let stopping = false;
      await world().cli(
        [
          'station',
          '--configuration',
          srcpToEpcOverIsm.configuration.name,
          '--json',
          '--confirm-checksum',
          await shiftChecksum(),
          '--operator',
          'Ola Operator',
        ],
        {
          env: { PROVISIONER_DISCOVERY: 'off' },
          onLine: (line, child) => {
            if (!line.startsWith('{')) return;
            events.push(JSON.parse(line) as StationEvent);
            const inSync = events
              .filter((e) => e.event === 'in-sync')
              .map((e) => (e as { serialNumber: string }).serialNumber);
            if (
              !stopping &&
              inSync.includes('SRCP000101') &&
              inSync.includes('EPC000101') &&
              events.some((e) => e.event === 'refused')
            ) {
              stopping = true;
              child.kill('SIGINT');
            }
          },
        },
      );
      // Each is still verified (a job reads its parameters back; nothing is sent), then left alone.
      expect(
        events
          .filter((e) => e.event === 'lane-started')
          .map((e) => (e as { serialNumber: string }).serialNumber)
          .sort(),
      ).toEqual(['EPC000101', 'SRCP000101']);
      expect(
        events
          .filter((e) => e.event === 'in-sync')
          .map((e) => (e as { text: string }).text)
          .join('\n'),
      ).toMatch(/parameters verified \(checksum [0-9A-F]{8}\)/);
      expect(
        events.filter((e) => e.event === 'refused').map((e) => (e as { serialNumber: string }).serialNumber),
      ).toEqual(['EPC000103']);
      const stopped = events.find((e) => e.event === 'station-stopped') as Extract<
        StationEvent,
        { event: 'station-stopped' }
      >;
      expect(stopped.counts).toMatchObject({ done: 0, failed: 0, inSync: 2, refused: 1 });
      expect(stopped.yieldPercent).toBeNull();
    },
  );
});
