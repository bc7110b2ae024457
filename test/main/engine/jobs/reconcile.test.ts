import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceSync, IntentJournal, Outbox, Reconciler, type DeviceObservation } from '../../../../main/engine/jobs';
import { workstationId } from '../../../../main/engine/jobs/workstation';
import { expireInterruptedJobs, INTERRUPTED_JOB_LIMIT_MS } from '../../../../main/engine/jobs/confirm';
import type { ConfirmationLedger } from '../../../../main/engine/ledger/confirmation-ledger';
import type { NewConfirmation } from '../../../../main/engine/outbox/outbox-entry';
import type { DeviceRecord } from '../../../../domain/registered-device-record';
import { deviceRecord, SYNC_A, SYNC_B } from './helpers/device-record';
import { SwitchableService } from './helpers/switchable-service';

/**
 * The reconciler on its own, with a scripted service: what a device reports is compared with what
 * the service recorded, and only the difference is confirmed; interrupted jobs are judged from the
 * device; nothing is said twice.
 */

let dir: string;
let service: SwitchableService;
let records: Map<string, DeviceRecord>;
let outbox: Outbox;
let intents: IntentJournal;
let reconciler: Reconciler;

const observed = (change: Partial<DeviceObservation> = {}): DeviceObservation => ({
  serialNumber: 'EPC000101',
  firmwareVersion: '1.1.0',
  configSyncId: SYNC_A,
  observedAt: new Date('2025-06-01T10:00:00.000Z'),
  ...change,
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pv-reconcile-'));
  service = new SwitchableService();
  records = new Map();
  outbox = new Outbox({ dir: join(dir, 'outbox'), sender: service });
  intents = new IntentJournal({ dir: join(dir, 'intents'), isAlive: () => false });
  const list = async ({ serial }: { serial?: string } = {}) => {
    service.reach('GET', '/devices');
    const found = serial ? records.get(serial) : undefined;
    return { items: found ? [found] : [], page: 1, limit: 1, totalCount: found ? 1 : 0 };
  };
  reconciler = new Reconciler({
    intents,
    outbox,
    workstation: async () => 'ws-1',
    account: () => ({
      client: { devices: { list } as never },
      address: { serviceUrl: 'http://service.test', orgId: 'org' },
    }),
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An intent left by a process that died, as the journal holds it. */
async function interrupted(kind: 'firmware' | 'configuration', phase = 'applying') {
  const crashed = new IntentJournal({ dir: join(dir, 'intents'), pid: 999_999_999 });
  return crashed.record({
    jobId: `job-${kind}`,
    kind,
    serviceUrl: 'http://service.test',
    orgId: 'org',
    serialNumber: 'EPC000101',
    firmwareVersion: kind === 'firmware' ? '1.1.0' : null,
    syncId: kind === 'configuration' ? SYNC_A : null,
    previousFirmwareVersion: '1.0.0',
    previousSyncId: null,
    phase,
  });
}

describe('reconcile', () => {
  it('confirms what the device runs and holds when the service recorded otherwise, as observations of this workstation', async () => {
    records.set('EPC000101', deviceRecord({ firmwareVersion: '1.0.0' }));
    const [outcome] = await reconciler.reconcile([observed()]);
    expect(outcome).toMatchObject({ confirmation: 'sent', error: null, interrupted: [] });
    expect(service.sent.map((e) => [e.kind, e.payload])).toEqual([
      [
        'firmware',
        expect.objectContaining({
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: '1.1.0',
          applyTimeStamp: '2025-06-01T10:00:00.000Z',
          observedAt: '2025-06-01T10:00:00.000Z',
          workstation: 'ws-1',
          reason: 'observation',
        }),
      ],
      [
        'configuration',
        expect.objectContaining({
          configurationFileSuccessfullyDeployed: true,
          syncId: SYNC_A,
          reason: 'observation',
          workstation: 'ws-1',
        }),
      ],
    ]);
  });

  it('confirms nothing when the service recorded what the device reports', async () => {
    records.set('EPC000101', deviceRecord({ firmwareVersion: '1.1.0', deployedSyncId: SYNC_A.toUpperCase() }));
    const [outcome] = await reconciler.reconcile([observed()]);
    expect(outcome).toMatchObject({ confirmation: 'none', confirmations: [] });
    expect(service.sent).toEqual([]);
  });

  it('says nothing of a configuration when the device holds none, nor of a device the organization has not registered', async () => {
    records.set('EPC000101', deviceRecord({ firmwareVersion: '1.1.0', deployedSyncId: SYNC_A }));
    await reconciler.reconcile([observed({ configSyncId: null }), observed({ serialNumber: 'EPC000199' })]);
    expect(service.sent).toEqual([]);
  });

  it('says a state once: waiting in the outbox while the service is unreachable, it is not queued again', async () => {
    records.set('EPC000101', deviceRecord({ firmwareVersion: '1.0.0', deployedSyncId: SYNC_A }));
    service.up = false;
    // The record cannot be read either: nothing to compare with.
    expect((await reconciler.reconcile([observed()]))[0]).toMatchObject({
      record: undefined,
      error: expect.stringContaining('could not be asked'),
      confirmation: 'none',
    });
    service.up = true;
    // A job's result waits in the outbox (sent while unreachable): the observation of the same state is not added.
    service.up = false;
    await outbox.enqueue({
      kind: 'firmware',
      serviceUrl: 'http://service.test',
      orgId: 'org',
      serialNumber: 'EPC000101',
      payload: {
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '1.1.0',
        applyTimeStamp: '2025-06-01T09:00:00.000Z',
      },
    });
    service.up = true;
    const [outcome] = await reconciler.reconcile([observed()]);
    expect(outcome!.confirmations).toEqual([]);
    await outbox.syncNow();
    expect(service.sent.map((e) => e.payload.reason ?? 'job')).toEqual(['job']);
  });

  it('judges an interrupted firmware job a success when the device runs the new version', async () => {
    const intent = await interrupted('firmware');
    records.set('EPC000101', deviceRecord({ firmwareVersion: '1.0.0', deployedSyncId: SYNC_A }));
    const [outcome] = await reconciler.reconcile([observed()]);
    expect(outcome!.interrupted).toEqual([
      { intent: expect.objectContaining({ jobId: 'job-firmware' }), success: true },
    ]);
    // The job's own success, timed when it was last known alive; no observation on top of it.
    expect(service.sent.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '1.1.0',
        applyTimeStamp: intent.updatedAt,
        reason: 'job-result',
        workstation: 'ws-1',
      }),
    ]);
    expect(await intents.orphans()).toEqual([]);
  });

  it('judges it a failure when the device still runs the old version, and then confirms what it runs', async () => {
    await interrupted('firmware');
    records.set('EPC000101', deviceRecord({ firmwareVersion: null, deployedSyncId: SYNC_A }));
    const [outcome] = await reconciler.reconcile([observed({ firmwareVersion: '1.0.0' })]);
    expect(outcome!.interrupted[0]!.success).toBe(false);
    expect(service.sent.map((e) => e.payload)).toEqual([
      expect.objectContaining({
        firmwareFileSuccessfullyDeployed: false,
        firmwareVersion: '1.1.0',
        error: expect.stringMatching(/ran firmware 1\.0\.0, the version it had before, not 1\.1\.0\.$/),
      }),
      expect.objectContaining({
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '1.0.0',
        reason: 'observation',
      }),
    ]);
  });

  it('judges an interrupted configuration job from the syncId the device holds, also without the service', async () => {
    await interrupted('configuration', 'checking');
    service.up = false;
    const [outcome] = await reconciler.settleInterrupted([observed()]);
    expect(outcome!.interrupted[0]!.success).toBe(true);
    const [entry] = await outbox.list();
    expect(entry).toMatchObject({
      kind: 'configuration',
      payload: { configurationFileSuccessfullyDeployed: true, syncId: SYNC_A, reason: 'job-result' },
    });
    expect(await intents.orphans()).toEqual([]);
  });

  it('leaves the intents of other devices alone', async () => {
    await interrupted('firmware');
    await reconciler.settleInterrupted([observed({ serialNumber: 'EPC000102' })]);
    expect((await intents.orphans()).map((i) => i.jobId)).toEqual(['job-firmware']);
  });

  it("records an interrupted job's outcome in the ledger before confirming it, and the confirmation carries the entry's hash (found by the soak bench: a Station killed mid-job)", async () => {
    const recorded: NewConfirmation[] = [];
    const ledger: ConfirmationLedger = {
      record: async (confirmation) => {
        recorded.push(confirmation);
        return { hash: 'ab'.repeat(32), seq: recorded.length };
      },
    };
    const withLedger = new Reconciler({
      intents,
      outbox,
      workstation: async () => 'ws-1',
      ledger,
      account: () => ({
        client: { devices: { list: async () => ({ items: [], page: 1, limit: 1, totalCount: 0 }) } as never },
        address: { serviceUrl: 'http://service.test', orgId: 'org' },
      }),
    });
    await interrupted('firmware');
    const [outcome] = await withLedger.reconcile([observed({ firmwareVersion: '1.0.0' })]);
    expect(outcome!.interrupted[0]!.success).toBe(false);
    expect(recorded.map((c) => [c.kind, c.payload.reason])).toEqual([['firmware', 'job-result']]);
    expect(service.sent.map((e) => e.payload)).toEqual([
      expect.objectContaining({ ledgerHash: 'ab'.repeat(32), ledgerSeq: 1, reason: 'job-result' }),
    ]);
  });

  it('records an interrupted job confirmed as failed for want of its device in the ledger too', async () => {
    const recorded: NewConfirmation[] = [];
    const ledger: ConfirmationLedger = {
      record: async (confirmation) => {
        recorded.push(confirmation);
        return { hash: 'cd'.repeat(32), seq: 3 };
      },
    };
    const intent = await interrupted('configuration');
    const { expired } = await expireInterruptedJobs(intents, outbox, {
      now: new Date(Date.parse(intent.updatedAt) + INTERRUPTED_JOB_LIMIT_MS + 1),
      ledger,
    });
    expect(expired).toHaveLength(1);
    expect(recorded.map((c) => c.kind)).toEqual(['configuration']);
    expect((await outbox.list())[0]!.payload).toMatchObject({ ledgerHash: 'cd'.repeat(32), ledgerSeq: 3 });
  });
});

describe('device sync', () => {
  it('in sync, behind, drift, unconfigured and unknown, in the words device list, verify and the Devices screen share', () => {
    const current = { firmwareVersion: '1.1.0', configSyncId: SYNC_A };
    expect(deviceSync(current, deviceRecord(), '1.1.0')).toMatchObject({ state: 'in-sync', text: 'in sync' });
    expect(deviceSync({ ...current, firmwareVersion: '1.0.0' }, deviceRecord(), '1.1.0')).toMatchObject({
      state: 'behind',
      text: 'firmware behind (device 1.0.0, service expects 1.1.0)',
    });
    expect(deviceSync({ ...current, configSyncId: SYNC_B }, deviceRecord(), '1.1.0')).toMatchObject({
      state: 'drift',
      text: `configuration drift (device has syncId ${SYNC_B}, service expects ${SYNC_A})`,
    });
    expect(
      deviceSync(
        current,
        deviceRecord({ configurationId: null, configurationName: null, currentSyncId: null }),
        '1.1.0',
      ),
    ).toMatchObject({ state: 'unconfigured', text: 'not in any configuration' });
    expect(deviceSync(current, null, '1.1.0').state).toBe('unknown');
    expect(deviceSync(current, undefined, '1.1.0').state).toBe('unknown');
    expect(deviceSync(current, deviceRecord(), undefined).state).toBe('unknown');
    // No firmware for the type: the service expects no version.
    expect(deviceSync(current, deviceRecord(), null).state).toBe('in-sync');
  });

  it('judges a device that names no file by its settings read back against the expected file (the vendor EPC)', () => {
    const nameless = { firmwareVersion: '1.1.0', configSyncId: null };
    const equal = { syncId: SYNC_A, compared: 12, mismatches: null };
    expect(deviceSync({ ...nameless, settingsReadBack: equal }, deviceRecord(), '1.1.0')).toMatchObject({
      state: 'in-sync',
      text: "in sync (the device names no file it holds; its 12 settings read back equal the configuration's)",
    });
    const differing = {
      ...equal,
      mismatches:
        'Safety communication timeout (cfg/sf/smcu/global/timeoutMs) is 900 ms, the configuration says 1000 ms',
    };
    expect(deviceSync({ ...nameless, settingsReadBack: differing }, deviceRecord(), '1.1.0')).toMatchObject({
      state: 'drift',
      text: `configuration drift (the device names no file it holds; its settings read back: ${differing.mismatches})`,
    });
    // Compared with another file than the one the service expects: it tells nothing.
    expect(
      deviceSync({ ...nameless, settingsReadBack: { ...equal, syncId: SYNC_B } }, deviceRecord(), '1.1.0'),
    ).toMatchObject({
      state: 'drift',
      text: `configuration drift (device has no configuration, service expects ${SYNC_A})`,
    });
    // Firmware behind still says so first.
    expect(
      deviceSync({ ...nameless, firmwareVersion: '1.0.0', settingsReadBack: equal }, deviceRecord(), '1.1.0').state,
    ).toBe('behind');
  });

  it('does not call a device that names no file and was not read back drift: unknown, with what the service recorded (device list on the vendor EPC)', () => {
    const listed = { firmwareVersion: '1.1.0', configSyncId: null, namesNoFile: true };
    expect(deviceSync(listed, deviceRecord({ deployedSyncId: SYNC_A }), '1.1.0')).toMatchObject({
      state: 'unknown',
      text: `configuration not read: the device names no file it holds (the service recorded syncId ${SYNC_A} applied); device verify reads its settings back`,
    });
    expect(deviceSync(listed, deviceRecord({ deployedSyncId: null }), '1.1.0').text).toContain('(no apply recorded)');
    // Our devices name their file: one that holds none is drift as before.
    expect(deviceSync({ ...listed, namesNoFile: false }, deviceRecord(), '1.1.0').state).toBe('drift');
    // Firmware behind still says so first.
    expect(deviceSync({ ...listed, firmwareVersion: '1.0.0' }, deviceRecord(), '1.1.0').state).toBe('behind');
  });

  it('reads the expected syncId from a service without currentSyncId while its deployment is current', () => {
    const { currentSyncId: _none, ...older } = deviceRecord({ deployStatus: 'Deployed', deployedSyncId: SYNC_A });
    expect(deviceSync({ firmwareVersion: '1.1.0', configSyncId: SYNC_A }, older, '1.1.0').state).toBe('in-sync');
    expect(
      deviceSync({ firmwareVersion: '1.1.0', configSyncId: SYNC_A }, { ...older, deployStatus: 'Outdated' }, '1.1.0')
        .state,
    ).toBe('drift');
  });

  it('says when the service last recorded an observation', () => {
    const seen = deviceRecord({
      lastFirmwareApply: {
        success: true,
        firmwareVersion: '1.1.0',
        error: null,
        appliedAt: '2025-06-01T09:00:00.000Z',
        observedAt: '2025-06-02T09:00:00.000Z',
      },
      lastConfigurationApply: { success: true, syncId: SYNC_A, error: null, appliedAt: '2025-06-01T12:00:00.000Z' },
    });
    expect(deviceSync({ firmwareVersion: '1.1.0', configSyncId: SYNC_A }, seen, '1.1.0').lastObservedAt).toBe(
      '2025-06-02T09:00:00.000Z',
    );
  });
});

describe('workstation id', () => {
  it('is made once and kept: every process on the data directory reads the same', async () => {
    const ids = await Promise.all([
      workstationId(join(dir, 'data')),
      workstationId(join(dir, 'data')),
      workstationId(join(dir, 'data')),
    ]);
    expect(new Set(ids).size).toBe(1);
    expect((await readFile(join(dir, 'data', 'workstation-id'), 'utf8')).trim()).toBe(ids[0]);
    expect(await workstationId(join(dir, 'data'))).toBe(ids[0]);
  });
});
