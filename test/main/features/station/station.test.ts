import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationEvent } from '../../../../contract/station';
import type { DeviceListEvent } from '../../../../main/devices/discovery/device-list';
import type { DiscoveredDevice } from '../../../../main/devices/discovery/discovered-device';
import { initialSnapshot, type JobSnapshot } from '../../../../main/engine/jobs/job-state';
import type { JobRequest } from '../../../../main/engine/jobs/queue';
import type { DeviceTarget } from '../../../../main/engine/jobs/device-port';
import type { DeviceSync } from '../../../../main/engine/jobs/device-sync';
import { Station, type StationJobs } from '../../../../main/features/station/station';
import type { StationRoster } from '../../../../main/features/station/roster';
import { SHIFT_REPORT_COLUMNS } from '../../../../main/features/station/shift-report';
import { PARAMETERS_DIFFER_ADVICE, SHIFT_DEPARTURE_ADVICE } from '../../../../main/features/station/failure-advice';
import {
  compareParameters,
  parameterChecksum,
  shortChecksum,
  type ParameterValues,
} from '../../../../domain/running-parameters';
import { shiftParameters } from '../../../../domain/shift-parameters';

/**
 * The station against a fake device list and a fake jobs engine: which plugged device gets a lane,
 * which is refused, flagged or left alone, how lanes are shared, and what the shift report says.
 */

const ROSTER: StationRoster = {
  configurationId: '00000000-0000-4000-8000-000000000001',
  configurationName: 'Loader 7 remote (ISM)',
  devices: new Map([
    ['SRCP000101', 'SRCP'],
    ['EPC000101', 'EPC'],
    ['EPC000102', 'EPC'],
  ]),
};

class FakeDevices {
  private readonly listeners = new Set<(event: DeviceListEvent) => void>();
  readonly present = new Map<string, DiscoveredDevice>();
  on(listener: (event: DeviceListEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  devices() {
    return [...this.present.values()];
  }
  plug(serialNumber: string, link = `serial:/dev/pts/${serialNumber}`, firmwareVersion = '1.0.0'): DiscoveredDevice {
    const device: DiscoveredDevice = {
      serialNumber,
      deviceType: serialNumber.replace(/\d+$/, ''),
      model: 'M',
      firmwareVersion,
      configSyncId: null,
      link,
      linkKind: 'serial',
    };
    this.present.set(link, device);
    for (const l of this.listeners) l({ type: 'added', device });
    return device;
  }
  unplug(link: string): void {
    const device = this.present.get(link)!;
    this.present.delete(link);
    for (const l of this.listeners) l({ type: 'removed', device });
  }
  /** Unplugged and plugged in again within the list's grace: its port went and came back. */
  replugQuickly(link: string): void {
    const device = this.present.get(link)!;
    for (const l of this.listeners) l({ type: 'returned', device, previous: device });
  }
}

/** Jobs that run until the test finishes them. */
class FakeJobs implements StationJobs {
  readonly started: JobRequest[] = [];
  readonly attached: string[] = [];
  readonly cancelled: string[] = [];
  private readonly snapshots = new Map<string, JobSnapshot>();
  private readonly waiters = new Map<string, (job: JobSnapshot) => void>();
  private readonly progressListeners = new Set<(batch: JobSnapshot[]) => void>();
  private readonly finishedListeners = new Set<(job: JobSnapshot) => void>();
  private next = 1;

  start(requests: readonly JobRequest[]): JobSnapshot[] {
    return requests.map((request) => {
      this.started.push(request);
      return this.submit(request.target, request.action);
    });
  }
  private submit(target: DeviceTarget, action: JobRequest['action']): JobSnapshot {
    const job = initialSnapshot({
      jobId: `job-${this.next++}`,
      linkId: target.kind === 'link' ? target.spec : '',
      action,
      serialNumber: target.serialNumber ?? null,
      now: new Date(),
    });
    this.snapshots.set(job.jobId, job);
    return job;
  }
  /** Jobs the station said it needs no more (the real engine then drops them). */
  readonly forgotten: string[] = [];
  forget(jobId: string): boolean {
    this.forgotten.push(jobId);
    return true;
  }
  cancel(jobId: string): boolean {
    this.cancelled.push(jobId);
    this.finish(jobId, { phase: 'cancelled', resultMessage: 'cancelled', errorCode: 'CANCELLED', resumable: true });
    return true;
  }
  wait(jobId: string): Promise<JobSnapshot> {
    const job = this.snapshots.get(jobId)!;
    if (job.finishedAt) return Promise.resolve(job);
    return new Promise((resolve) => this.waiters.set(jobId, resolve));
  }
  onProgress(listener: (batch: JobSnapshot[]) => void) {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }
  onFinished(listener: (job: JobSnapshot) => void) {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }
  deviceAttached(serialNumber: string, target?: DeviceTarget): JobSnapshot[] {
    this.attached.push(serialNumber);
    const failed = [...this.snapshots.values()].reverse().find((j) => j.serialNumber === serialNumber);
    return failed && failed.phase === 'failed' && failed.resumable ? [this.submit(target!, failed.action)] : [];
  }
  jobOf(serialNumber: string): JobSnapshot {
    return [...this.snapshots.values()].reverse().find((j) => j.serialNumber === serialNumber)!;
  }
  progress(jobId: string, change: Partial<JobSnapshot>): void {
    const job = { ...this.snapshots.get(jobId)!, ...change };
    this.snapshots.set(jobId, job);
    for (const l of this.progressListeners) l([job]);
  }
  finish(jobId: string, change: Partial<JobSnapshot>): void {
    const job: JobSnapshot = { ...this.snapshots.get(jobId)!, finishedAt: new Date().toISOString(), ...change };
    this.snapshots.set(jobId, job);
    for (const l of this.progressListeners) l([job]);
    for (const l of this.finishedListeners) l(job);
    this.waiters.get(jobId)?.(job);
  }
  succeed(serialNumber: string): void {
    const job = this.jobOf(serialNumber);
    this.finish(job.jobId, {
      steps: job.steps.map((step) => ({ ...step, status: 'done' as const })),
      phase: 'done',
      outcome: 'applied',
      firmwareVersion: '1.1.0',
      syncId: 'c0ffee00-0000-4000-8000-000000000000',
      confirmation: 'sent',
      resultMessage: 'firmware 1.1.0 installed; configuration applied',
    });
  }
}

const notInSync = (text = 'firmware behind'): DeviceSync => ({
  state: 'behind',
  text,
  firmware: { version: '1.0.0', expected: '1.1.0' },
  configuration: { syncId: null, expected: null },
  lastObservedAt: null,
});
const inSync: DeviceSync = {
  state: 'in-sync',
  text: 'in sync',
  firmware: { version: '1.1.0', expected: '1.1.0' },
  configuration: { syncId: 'x', expected: 'x' },
  lastObservedAt: null,
};

let dir: string;
let devices: FakeDevices;
let jobs: FakeJobs;
let events: StationEvent[];
let synced: Set<string>;

function station(lanes = 2): Station {
  const s = new Station({
    roster: ROSTER,
    devices,
    jobs,
    checkSync: async (device) => (synced.has(device.serialNumber) ? inSync : notInSync()),
    lanes,
    firmware: 'latest',
    reportDir: dir,
  });
  s.on((event) => events.push(event));
  s.start();
  return s;
}

const named = (kind: StationEvent['event']) =>
  events.filter((e) => e.event === kind) as Array<StationEvent & { serialNumber: string }>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-station-'));
  devices = new FakeDevices();
  jobs = new FakeJobs();
  events = [];
  synced = new Set();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the station', () => {
  it('provisions a plugged device of the configuration with firmware then configuration, and says done, unplug me', async () => {
    const s = station();
    devices.plug('EPC000101');
    await s.settled();
    expect(jobs.started).toEqual([
      { action: 'both', target: { kind: 'link', spec: 'serial:/dev/pts/EPC000101', serialNumber: 'EPC000101' } },
    ]);
    const job = jobs.jobOf('EPC000101');
    jobs.progress(job.jobId, { step: 'firmware', phase: 'uploading', bytesDone: 30_000, bytesTotal: 65_536 });
    expect(s.view().tiles[0]).toMatchObject({
      serialNumber: 'EPC000101',
      state: 'working',
      step: 'firmware',
      headline: 'Uploading firmware 45%',
      detail: null,
    });
    expect(named('progress').at(-1)).toMatchObject({ serialNumber: 'EPC000101', percent: 45 });
    // Measured, and coded: the tile says how it goes, as the workbench row does.
    jobs.progress(job.jobId, {
      bytesDone: 32_768,
      transferCoding: 'compressed, 1.6× faster',
      rateBytesPerSecond: 17_200,
    });
    expect(s.view().tiles[0]).toMatchObject({
      headline: 'Uploading firmware 50%',
      detail: 'compressed, 1.6× faster · 17.2 kB/s',
    });
    jobs.succeed('EPC000101');
    expect(s.view().tiles[0]).toMatchObject({ state: 'done', headline: 'Done, unplug me', action: 'Unplug it' });
    expect(s.view().counts).toMatchObject({ done: 1, failed: 0, waiting: 0 });
    expect(s.view().yieldPercent).toBe(100);
    expect(events.map((e) => e.event)).toEqual([
      'station-started',
      'waiting',
      'lane-started',
      'step',
      'progress',
      'progress',
      'done',
    ]);
  });

  it('refuses a device that is not in the configuration, once per plug, and starts nothing', async () => {
    const s = station();
    devices.plug('EPC000199');
    await s.settled();
    expect(jobs.started).toEqual([]);
    expect(named('refused')).toHaveLength(1);
    expect(named('refused')[0]!.serialNumber).toBe('EPC000199');
    expect(s.view().notes[0]).toMatchObject({ kind: 'refused', serialNumber: 'EPC000199' });
    expect(s.view().notes[0]!.message).toContain('not in the configuration "Loader 7 remote (ISM)"');
    expect(s.view().counts.refused).toBe(1);
  });

  it('leaves a device that is already in sync alone', async () => {
    synced.add('SRCP000101');
    const s = station();
    devices.plug('SRCP000101');
    await s.settled();
    expect(jobs.started).toEqual([]);
    expect(named('in-sync').map((e) => e.serialNumber)).toEqual(['SRCP000101']);
    expect(s.view().counts).toMatchObject({ inSync: 1, done: 0 });
    expect(s.view().yieldPercent).toBeNull();
  });

  it('works on at most N devices at once; the next waits for a free lane', async () => {
    const s = station(2);
    for (const serial of ['SRCP000101', 'EPC000101', 'EPC000102']) devices.plug(serial);
    await s.settled();
    expect(jobs.started.map((r) => r.target.serialNumber)).toEqual(['SRCP000101', 'EPC000101']);
    expect(s.view().counts).toMatchObject({ working: 2, waiting: 1 });
    jobs.succeed('SRCP000101');
    expect(jobs.started.map((r) => r.target.serialNumber)).toEqual(['SRCP000101', 'EPC000101', 'EPC000102']);
  });

  it('keeps devices apart: one failing tells why and what to do, and the other still finishes', async () => {
    const s = station();
    devices.plug('SRCP000101');
    devices.plug('EPC000101');
    await s.settled();
    jobs.finish(jobs.jobOf('SRCP000101').jobId, {
      phase: 'failed',
      outcome: 'failed',
      errorCode: 'FW_HASH_MISMATCH',
      resultMessage: 'firmware upload failed: the image does not match its hash',
      resumable: false,
    });
    jobs.succeed('EPC000101');
    const failed = s.view().tiles.find((t) => t.serialNumber === 'SRCP000101')!;
    expect(failed).toMatchObject({
      state: 'failed',
      headline: 'Failed',
      detail: 'firmware upload failed: the image does not match its hash',
    });
    expect(failed.action).toContain('code FW_HASH_MISMATCH');
    expect(named('failed')[0]).toMatchObject({
      serialNumber: 'SRCP000101',
      errorCode: 'FW_HASH_MISMATCH',
      resumable: false,
    });
    expect(s.view().counts).toMatchObject({ done: 1, failed: 1 });
    expect(s.view().yieldPercent).toBe(50);
  });

  it('flags a serial number plugged again after it was done, and one plugged twice at once', async () => {
    const s = station();
    devices.plug('EPC000101');
    await s.settled();
    jobs.succeed('EPC000101');
    devices.unplug('serial:/dev/pts/EPC000101');
    devices.plug('EPC000101', 'serial:/dev/pts/other');
    devices.plug('SRCP000101', 'serial:/dev/pts/a');
    devices.plug('SRCP000101', 'serial:/dev/pts/b');
    await s.settled();
    expect(named('duplicate').map((e) => [e.serialNumber, (e as { link: string }).link])).toEqual([
      ['EPC000101', 'serial:/dev/pts/other'],
      ['SRCP000101', 'serial:/dev/pts/b'],
    ]);
    expect(jobs.started.map((r) => r.target.serialNumber)).toEqual(['EPC000101', 'SRCP000101']);
    expect(s.view().counts.duplicate).toBe(2);
  });

  it('does not take a copy of a serial number at its word; the real device, and one back after a failure, it does', async () => {
    const s = station();
    const real = devices.plug('EPC000101');
    await s.settled();
    const copy = { serialNumber: 'EPC000101', link: 'serial:/dev/pts/copy' };
    // Asked before the station itself hears of the copy (the core reads a device first): already a copy.
    expect(s.speaksForItsSerial(copy)).toBe(false);
    expect(s.speaksForItsSerial(real)).toBe(true);
    expect(s.speaksForItsSerial({ serialNumber: 'EPC000102', link: 'serial:/dev/pts/EPC000102' })).toBe(true);
    devices.plug(copy.serialNumber, copy.link);
    jobs.succeed('EPC000101');
    devices.unplug(real.link);
    // Still plugged in after the real one left: flagged, so still not believed.
    expect(s.speaksForItsSerial(copy)).toBe(false);
    devices.unplug(copy.link);
    // After the real one was done, any device with its serial is a copy for the rest of the shift.
    expect(s.speaksForItsSerial({ serialNumber: 'EPC000101', link: 'serial:/dev/pts/later' })).toBe(false);

    devices.plug('SRCP000101');
    await s.settled();
    jobs.finish(jobs.jobOf('SRCP000101').jobId, {
      phase: 'failed',
      outcome: 'failed',
      errorCode: 'DEVICE_DISCONNECTED',
      resultMessage: 'the device went away',
      resumable: true,
    });
    devices.unplug('serial:/dev/pts/SRCP000101');
    expect(s.speaksForItsSerial({ serialNumber: 'SRCP000101', link: 'serial:/dev/pts/SRCP000101' })).toBe(true);
    await s.stop();
  });

  it('resumes a device whose upload was interrupted when it is plugged in again', async () => {
    const s = station();
    devices.plug('SRCP000101');
    await s.settled();
    jobs.finish(jobs.jobOf('SRCP000101').jobId, {
      phase: 'failed',
      outcome: 'failed',
      errorCode: 'DEVICE_DISCONNECTED',
      resultMessage: 'firmware upload failed at 31%: the device went away',
      resumable: true,
    });
    expect(s.view().tiles[0]!.action).toBe('Plug it in again: the upload resumes where it stopped.');
    devices.unplug('serial:/dev/pts/SRCP000101');
    devices.plug('SRCP000101');
    await s.settled();
    expect(jobs.attached).toEqual(['SRCP000101']);
    expect(named('lane-started').map((e) => (e as { resumed: boolean }).resumed)).toEqual([false, true]);
    jobs.succeed('SRCP000101');
    expect(s.view().counts).toMatchObject({ done: 1, failed: 0, duplicate: 0 });
  });

  it('retries a failed device plugged in again within the device list grace, not one still at work', async () => {
    const s = station();
    devices.plug('SRCP000101');
    devices.plug('EPC000101');
    await s.settled();
    // A working lane's device whose port comes back is rebooting for its job: nothing new starts.
    devices.replugQuickly('serial:/dev/pts/EPC000101');
    expect(named('lane-started').map((e) => e.serialNumber)).toEqual(['SRCP000101', 'EPC000101']);
    jobs.finish(jobs.jobOf('SRCP000101').jobId, {
      phase: 'failed',
      outcome: 'failed',
      errorCode: 'FW_APPLY_FAILED',
      resultMessage: 'firmware apply failed: came back running 1.0.0, not 1.1.0',
      resumable: false,
    });
    devices.replugQuickly('serial:/dev/pts/SRCP000101');
    expect(named('waiting').map((e) => e.serialNumber)).toEqual(['SRCP000101', 'EPC000101', 'SRCP000101']);
    expect(named('lane-started').map((e) => e.serialNumber)).toEqual(['SRCP000101', 'EPC000101', 'SRCP000101']);
    jobs.succeed('SRCP000101');
    expect(s.view().counts).toMatchObject({ done: 1, failed: 0 });
    // Done: its port coming back again is not a reason to start anything.
    devices.replugQuickly('serial:/dev/pts/SRCP000101');
    expect(jobs.started).toHaveLength(3);
    await s.stop();
  });

  it('at stop cancels what runs and writes the shift report, one row per device seen', async () => {
    const s = station();
    devices.plug('EPC000101');
    devices.plug('SRCP000101');
    devices.plug('EPC000199');
    await s.settled();
    jobs.succeed('EPC000101');
    const report = await s.stop();
    expect(jobs.cancelled).toEqual([jobs.jobOf('SRCP000101').jobId]);
    expect(report.path.startsWith(dir)).toBe(true);
    const rows = parse(await readFile(report.path, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual([...SHIFT_REPORT_COLUMNS]);
    expect(rows.map((r) => [r.serialNumber, r.result])).toEqual([
      ['EPC000101', 'done'],
      ['SRCP000101', 'failed'],
      ['EPC000199', 'refused'],
    ]);
    expect(rows[0]).toMatchObject({ firmwareBefore: '1.0.0', firmwareAfter: '1.1.0', confirmation: 'sent' });
    expect(report.rows).toBe(3);
    expect(events.at(-1)).toMatchObject({ event: 'station-stopped', report });
    devices.plug('EPC000102');
    expect(jobs.started).toHaveLength(2);
  });
  it('does not call a device done when a step of its job was not done: the tile says which', async () => {
    const s = station();
    devices.plug('EPC000101');
    await s.settled();
    const job = jobs.jobOf('EPC000101');
    const steps = job.steps.map((step) =>
      step.step === 'firmware'
        ? { ...step, status: 'done' as const, summary: 'firmware 1.1.0 installed' }
        : step.step === 'configuration'
          ? {
              ...step,
              status: 'skipped' as const,
              summary: 'configuration not applied',
              reason: 'the service has no file for it yet',
            }
          : step,
    );
    jobs.finish(job.jobId, { phase: 'done', outcome: 'applied', steps, resultMessage: 'firmware 1.1.0 installed' });
    const tile = s.view().tiles[0]!;
    expect(tile).toMatchObject({ state: 'failed', headline: 'Failed' });
    expect(tile.detail).toContain('firmware 1.1.0 installed ✓');
    expect(tile.detail).toContain('configuration not applied: the service has no file for it yet');
    expect(s.view().counts).toMatchObject({ done: 0, failed: 1 });
  });
});

describe('the station with a shift confirmed (issue 26)', () => {
  const SYNC_ID = 'c0ffee00-0000-4000-8000-000000000000';
  const valuesOf = (serialNumber: string, timeout = 500): ParameterValues => ({
    'device.serialNumber': serialNumber,
    'safety.timeout': timeout,
  });
  const shift = shiftParameters(
    { id: ROSTER.configurationId, name: ROSTER.configurationName },
    [...ROSTER.devices].map(([serialNumber, deviceType]) => ({
      serialNumber,
      deviceType,
      syncId: SYNC_ID,
      values: valuesOf(serialNumber),
    })),
  );
  /** What a job's verification finds: the file intends `intended`, the device runs `running`. */
  const comparison = (intended: ParameterValues, running: ParameterValues) =>
    compareParameters(intended, { values: running, checksum: parameterChecksum(running), checksumBy: 'device' });

  let recorded: Array<{ serialNumber: string; confirmedByShift: boolean; match: boolean }>;
  function confirmedStation(): Station {
    recorded = [];
    const s = new Station({
      roster: ROSTER,
      devices,
      jobs,
      checkSync: async (device) => (synced.has(device.serialNumber) ? inSync : notInSync()),
      lanes: 2,
      firmware: 'latest',
      reportDir: dir,
      parameters: {
        shift,
        confirmation: {
          operator: 'Ola Operator',
          checksumShort: shortChecksum(shift.checksum),
          confirmedAt: new Date().toISOString(),
        },
        record: async (verified, confirmedByShift) => {
          recorded.push({ serialNumber: verified.serialNumber, confirmedByShift, match: verified.comparison.match });
        },
      },
    });
    s.on((event) => events.push(event));
    s.start();
    return s;
  }
  const finishWith = (serialNumber: string, parameters: ReturnType<typeof comparison>) => {
    const job = jobs.jobOf(serialNumber);
    jobs.finish(job.jobId, {
      steps: job.steps.map((step) => ({ ...step, status: 'done' as const })),
      phase: 'done',
      outcome: 'applied',
      syncId: SYNC_ID,
      confirmation: 'sent',
      resultMessage: 'configuration applied',
      parameters,
    });
  };

  it('verifies a device found in sync with a configuration-only job, and calls it in sync only then; the view names the operator', async () => {
    const s = confirmedStation();
    synced.add('EPC000101');
    devices.plug('EPC000101');
    await s.settled();
    expect(jobs.started.map((r) => r.action)).toEqual(['configuration']);
    finishWith('EPC000101', comparison(valuesOf('EPC000101'), valuesOf('EPC000101')));
    await s.settled();
    expect(s.view().tiles[0]).toMatchObject({ state: 'in-sync', headline: 'Already in sync' });
    expect(s.view().tiles[0]!.detail).toMatch(/parameters verified \(checksum [0-9A-F]{8}\)/);
    expect(recorded).toEqual([{ serialNumber: 'EPC000101', confirmedByShift: true, match: true }]);
    expect(s.view().shift).toMatchObject({ operator: 'Ola Operator', checksumShort: shortChecksum(shift.checksum) });
    expect((events[0] as Extract<StationEvent, { event: 'station-started' }>).shift?.operator).toBe('Ola Operator');
  });

  it('fails and keeps apart a device whose parameters differ, saying which in words, and records the failure unconfirmed', async () => {
    const s = confirmedStation();
    devices.plug('EPC000101');
    await s.settled();
    const job = jobs.jobOf('EPC000101');
    const parameters = comparison(valuesOf('EPC000101'), valuesOf('EPC000101', 1024));
    jobs.finish(job.jobId, {
      phase: 'failed',
      errorCode: 'PARAMETERS_MISMATCH',
      resultMessage: 'parameter verification failed',
      syncId: SYNC_ID,
      parameters,
    });
    await s.settled();
    expect(s.view().tiles[0]).toMatchObject({
      state: 'failed',
      headline: 'Failed: parameters differ, keep it apart',
      detail:
        'The device took its configuration file but does not run its parameters: Safety timeout 500 ms intended, 1024 ms running.',
      action: PARAMETERS_DIFFER_ADVICE,
      // The same as codes and values, for a reader of another language.
      keptApart: {
        kind: 'parametersDiffer',
        rows: [{ key: 'safety.timeout', unit: 'ms', first: 500, second: 1024 }],
      },
      failureReason: null,
    });
    expect(named('failed')[0]).toMatchObject({ keptApart: { kind: 'parametersDiffer' } });
    expect(recorded).toEqual([{ serialNumber: 'EPC000101', confirmedByShift: false, match: false }]);
    expect(s.view().counts).toMatchObject({ failed: 1, done: 0 });
  });

  it('fails a device whose file changed since the shift was confirmed, though it runs that file', async () => {
    const s = confirmedStation();
    devices.plug('EPC000102');
    await s.settled();
    // The configuration now intends 750 ms; the device runs 750 ms; the operator confirmed 500 ms.
    finishWith('EPC000102', comparison(valuesOf('EPC000102', 750), valuesOf('EPC000102', 750)));
    await s.settled();
    expect(s.view().tiles[0]).toMatchObject({
      state: 'failed',
      headline: 'Failed: parameters differ, keep it apart',
      action: SHIFT_DEPARTURE_ADVICE,
    });
    expect(s.view().tiles[0]!.detail).toContain(
      'the configuration changed since the shift began (Safety timeout 750 ms now, 500 ms confirmed)',
    );
    expect(named('failed')[0]).toMatchObject({
      errorCode: 'PARAMETERS_NOT_CONFIRMED',
      keptApart: { kind: 'shiftChanged', rows: [{ key: 'safety.timeout', unit: 'ms', first: 750, second: 500 }] },
    });
    expect(recorded).toEqual([{ serialNumber: 'EPC000102', confirmedByShift: false, match: true }]);
  });
});
