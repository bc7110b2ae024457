import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StationEvent } from '../../../../contract/station';
import type { DeviceListEvent } from '../../../../main/devices/discovery/device-list';
import type { DiscoveredDevice } from '../../../../main/devices/discovery/discovered-device';
import { JobQueue, type JobEnvironment, type StepResult } from '../../../../main/engine/jobs';
import { initialSnapshot, type JobSnapshot } from '../../../../main/engine/jobs/job-state';
import { Station, type StationJobs } from '../../../../main/features/station/station';
import { laneJob } from '../../../../main/features/station/lane-job';
import type { StationRoster } from '../../../../main/features/station/roster';

/**
 * A shift keeps what its record needs and no more (issue 30, the soak's memory): the Station runs
 * its devices through the real job queue (step runners stand in for the devices), and the queue
 * holds no finished job of the shift once its lane has recorded it, but for a failed upload the
 * device kept part of, until its next plug resumes it. A lane keeps a few fields of its job, not
 * the job.
 */

const DEVICES = 40;
const LANES = 4;
const serial = (i: number) => `EPC${String(900_001 + i)}`;
const ROSTER: StationRoster = {
  configurationId: '00000000-0000-4000-8000-000000000030',
  configurationName: 'Night shift (keeps little)',
  devices: new Map(Array.from({ length: DEVICES }, (_, i) => [serial(i), 'EPC'] as const)),
};

class Devices {
  private readonly listeners = new Set<(event: DeviceListEvent) => void>();
  private readonly present = new Map<string, DiscoveredDevice>();
  on(listener: (event: DeviceListEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  devices() {
    return [...this.present.values()];
  }
  plug(serialNumber: string, link: string): void {
    const device: DiscoveredDevice = {
      serialNumber,
      deviceType: 'EPC',
      model: 'EPC',
      firmwareVersion: '1.0.0',
      configSyncId: null,
      link,
      linkKind: 'serial',
    };
    this.present.set(link, device);
    for (const listener of this.listeners) listener({ type: 'added', device });
  }
  unplug(link: string): void {
    const device = this.present.get(link)!;
    this.present.delete(link);
    for (const listener of this.listeners) listener({ type: 'removed', device });
  }
}

function result(change: Partial<StepResult> = {}): StepResult {
  return {
    phase: 'done',
    outcome: 'applied',
    resultMessage: 'ok',
    errorCode: null,
    resumable: false,
    confirmation: 'sent',
    ...change,
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-station-keeps-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a shift of many devices', () => {
  it('leaves no finished job in the queue but a resumable one, until its device is back', async () => {
    /** The device whose first upload loses its cable: the device keeps what it took. */
    const pulled = serial(7);
    let pulledTries = 0;
    const queue = new JobQueue({
      concurrency: LANES,
      environment: () => ({}) as JobEnvironment,
      runners: {
        firmware: async (_env, request, control) => {
          control.update({ phase: 'uploading', bytesDone: 1024, bytesTotal: 4096, firmwareVersion: '1.1.0' });
          await new Promise((resolve) => setTimeout(resolve, 1));
          if (request.target.serialNumber === pulled && (pulledTries += 1) === 1)
            return result({
              phase: 'failed',
              outcome: 'failed',
              resultMessage: 'the cable was pulled at 25%',
              errorCode: 'DEVICE_DISCONNECTED',
              resumable: true,
            });
          return result({ firmwareVersion: '1.1.0', resultMessage: 'firmware 1.1.0 installed (was 1.0.0)' });
        },
        configuration: async () => result({ resultMessage: 'configuration applied', syncId: 'sync-1' }),
      },
    });
    const jobs: StationJobs = {
      start: (requests) => requests.map((request) => queue.submit(request)),
      cancel: (jobId) => queue.cancel(jobId),
      wait: (jobId) => queue.wait(jobId),
      forget: (jobId) => queue.forget(jobId),
      onProgress: (listener) => queue.subscribe(listener),
      onFinished: (listener) => queue.onFinished(listener),
      deviceAttached: (serialNumber, target) => queue.deviceAttached(serialNumber, target),
    };
    const devices = new Devices();
    const events: StationEvent[] = [];
    const station = new Station({
      roster: ROSTER,
      devices,
      jobs,
      checkSync: async () => ({
        state: 'behind',
        text: 'firmware behind',
        firmware: { version: '1.0.0', expected: '1.1.0' },
        configuration: { syncId: null, expected: null },
        lastObservedAt: null,
      }),
      lanes: LANES,
      firmware: 'latest',
      reportDir: dir,
    });
    station.on((event) => events.push(event));
    station.start();
    const heard = (kind: StationEvent['event'], serialNumber: string) =>
      events.filter((e) => e.event === kind && 'serialNumber' in e && e.serialNumber === serialNumber).length;

    // The person at the station: a lane's worth plugged in, each taken away once the Station says so.
    for (let from = 0; from < DEVICES; from += LANES) {
      const batch = Array.from({ length: LANES }, (_, i) => serial(from + i));
      for (const sn of batch) devices.plug(sn, `serial:/dev/pts/${sn}`);
      await station.settled();
      await queue.idle();
      for (const sn of batch) devices.unplug(`serial:/dev/pts/${sn}`);
      // Between batches: only the failed upload of the pulled device is kept, for its resume.
      const kept = queue.jobs();
      expect(kept.map((job) => job.serialNumber)).toEqual(from + LANES > 7 ? [pulled] : []);
      expect(kept.every((job) => job.phase === 'failed' && job.resumable)).toBe(true);
    }
    expect(heard('failed', pulled)).toBe(1);

    // Plugged in again: the upload resumes from the kept job, which is then forgotten with the rest.
    devices.plug(pulled, `serial:/dev/pts/${pulled}-again`);
    await station.settled();
    await queue.idle();
    expect(events.filter((e) => e.event === 'lane-started' && e.serialNumber === pulled).at(-1)).toMatchObject({
      resumed: true,
    });
    expect(heard('done', pulled)).toBe(1);
    expect(queue.jobs()).toEqual([]);

    const { counts } = station.view();
    expect(counts).toMatchObject({ done: DEVICES, failed: 0, working: 0 });
    await station.stop();
  });

  it("keeps of a job only the lane's fields: not its steps, parameter table, signer or link", () => {
    const job: JobSnapshot = {
      ...initialSnapshot({ jobId: 'j1', linkId: 'serial:/dev/pts/1', action: 'both', now: new Date(0) }),
      phase: 'done',
      firmwareVersion: '1.1.0',
      syncId: 'sync-1',
      confirmation: 'sent',
      link: 'serial:/dev/pts/1',
      firmwareSigner: { keyId: 'k1', name: 'Release 2026' },
      parameters: {
        rows: Array.from({ length: 150 }, (_, i) => ({
          key: `device.peers.${i}`,
          label: `Peer ${i}`,
          group: 'Peers',
          unit: '',
          intended: serial(i),
          running: serial(i),
          match: true,
        })) as never,
        intendedChecksum: 'a'.repeat(64),
        runningChecksum: 'a'.repeat(64),
        checksumBy: 'device',
        runningChecksumConsistent: true,
        checksumsMatch: true,
        match: true,
        tableDigest: 'b'.repeat(64),
      },
    };
    const kept = laneJob(job);
    expect(Object.keys(kept).sort()).toEqual(
      [
        'bytesDone',
        'bytesTotal',
        'confirmation',
        'errorCode',
        'failureReason',
        'firmwareVersion',
        'jobId',
        'phase',
        'rateBytesPerSecond',
        'resultMessage',
        'resumable',
        'step',
        'syncId',
        'transferCoding',
      ].sort(),
    );
    expect(kept).toMatchObject({ jobId: 'j1', phase: 'done', firmwareVersion: '1.1.0', syncId: 'sync-1' });
    expect(JSON.stringify(kept).length).toBeLessThan(400);
  });
});
