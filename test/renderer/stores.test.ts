import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachedDeviceView, JobView, SessionView } from '../../contract/index';
import { ProvisionerError, client } from '../../renderer/api/client';
import { isSelectable, jobForDevice, selectableLinkIds, useWorkbench } from '../../renderer/stores/workbench';
import { capability, useSession } from '../../renderer/stores/session';
import { useOutbox } from '../../renderer/stores/outbox';
import { wireEvents } from '../../renderer/stores/wire-events';
import { jobView } from '../fixtures/job-view';
import { attachedDevice } from '../fixtures/attached-device';
import { FakeApi } from './fake-api';

function device(linkId: string, change: Partial<AttachedDeviceView> = {}): AttachedDeviceView {
  return attachedDevice(`SN-${linkId}`, { linkId, address: linkId.slice(7), ...change });
}

/** A job on `linkId` at the start of its upload, its device not identified yet. */
function job(jobId: string, linkId: string, change: Partial<JobView> = {}): JobView {
  return jobView({
    jobId,
    linkId,
    serialNumber: null,
    bytesDone: 0,
    bytesTotal: 10,
    rateBytesPerSecond: null,
    ...change,
  });
}

const signedIn: SessionView = {
  status: 'signedIn',
  kind: 'service',
  serviceUrl: 'https://dcms.example.com',
  orgId: 'acme',
  organizationName: null,
  region: 'NA',
  keyName: 'tech-1',
  role: 'Operator',
  remembered: true,
  capabilities: {
    'configurations.read': { allowed: true },
    'configurations.write': {
      allowed: false,
      reason: 'Your key’s role Operator may not create or change configurations.',
    },
    'devices.read': { allowed: true },
    'devices.write': { allowed: false, reason: 'no' },
    'files.download': { allowed: true },
    'confirmations.send': { allowed: true },
    'templates.read': { allowed: true },
    'templates.write': { allowed: false, reason: 'no' },
    'users.manage': { allowed: false, reason: 'no' },
    'keys.manage': { allowed: false, reason: 'no' },
  },
};

beforeEach(() => {
  useWorkbench.setState({ devices: [], jobs: {}, selected: [], loaded: false, error: null });
  useSession.setState({ session: null, appInfo: null, busy: false, error: null });
});

describe('the client', () => {
  it('unwraps outcomes and throws the core error with its violations', async () => {
    const api = new FakeApi()
      .answer('workbench.cancel', true)
      .answer('devices.register', {
        code: 'VALIDATION',
        message: 'Unknown serial',
        violations: [{ code: 'X', field: 'serialNumber', message: 'm' }],
        httpStatus: 400,
      })
      .install();
    await expect(client().call('workbench.cancel', { jobId: 'j' })).resolves.toBe(true);
    const failure = await client()
      .call('devices.register', { serialNumber: 'S', name: 'n' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProvisionerError);
    expect(failure).toMatchObject({ code: 'VALIDATION', httpStatus: 400, violations: [{ field: 'serialNumber' }] });
    expect(api.calls.map((c) => c.channel)).toEqual(['workbench.cancel', 'devices.register']);
  });
});

describe('session store', () => {
  it('keeps the sign-in error for the form and clears it on the next try', async () => {
    let attempt = 0;
    new FakeApi()
      .answer('session.signIn', () =>
        ++attempt === 1 ? { code: 'AUTH_FAILED', message: 'Key refused', violations: [], httpStatus: 401 } : signedIn,
      )
      .install();
    const input = { serviceUrl: 'https://dcms.example.com', orgId: 'acme', apiKey: 'k' };
    await expect(useSession.getState().signIn(input)).resolves.toBe(false);
    expect(useSession.getState().error).toBe('Key refused');
    await expect(useSession.getState().signIn(input)).resolves.toBe(true);
    expect(useSession.getState()).toMatchObject({ error: null, busy: false, session: { role: 'Operator' } });
  });

  it('answers capabilities with the reason, and refuses everything when signed out', () => {
    expect(capability(signedIn, 'configurations.write')).toEqual({
      allowed: false,
      reason: expect.stringContaining('Operator'),
    });
    expect(capability(signedIn, 'files.download')).toEqual({ allowed: true });
    expect(capability({ status: 'signedOut', lastOrgId: null, lastServiceUrl: null }, 'files.download')).toEqual({
      allowed: false,
      reason: 'Sign in first.',
    });
  });
});

describe('workbench store', () => {
  it('follows the event streams and never goes back to an older job state', () => {
    const api = new FakeApi().install();
    const off = wireEvents();
    api.emit('workbench.devicesChanged', [device('serial:/dev/a'), device('serial:/dev/b')]);
    api.emit('jobs.progress', [job('j1', 'serial:/dev/a', { bytesDone: 5, updatedAt: '2026-01-01T00:00:05.000Z' })]);
    api.emit('jobs.progress', [job('j1', 'serial:/dev/a', { bytesDone: 2, updatedAt: '2026-01-01T00:00:02.000Z' })]);
    expect(useWorkbench.getState().jobs.j1?.bytesDone).toBe(5);
    api.emit('session.changed', signedIn);
    expect(useSession.getState().session).toEqual(signedIn);
    api.emit('outbox.changed', {
      entries: [],
      pendingCount: 3,
      rejectedCount: 0,
      oldestPendingSince: null,
      totalCount: 3,
      offset: 0,
      limit: 100,
      nextCursor: null,
    });
    expect(useOutbox.getState().outbox?.pendingCount).toBe(3);
    off();
  });

  it('selects only identified devices without a running job, and drops devices that left', () => {
    const devices = [
      device('serial:/dev/a', { activeJobId: 'j1' }),
      device('serial:/dev/b'),
      device('serial:/dev/c', { serialNumber: null }),
    ];
    const jobs = { j1: job('j1', 'serial:/dev/a') };
    expect(selectableLinkIds(devices, jobs)).toEqual(['serial:/dev/b']);
    expect(isSelectable(devices[0]!, { j1: job('j1', 'serial:/dev/a', { phase: 'done' }) })).toBe(true);
    useWorkbench.setState({ devices, jobs });
    useWorkbench.getState().selectAll(true);
    expect(useWorkbench.getState().selected).toEqual(['serial:/dev/b']);
    useWorkbench.getState().applyDevices([device('serial:/dev/a')]);
    expect(useWorkbench.getState().selected).toEqual([]);
  });

  it('shows a device the newest job of its link', () => {
    const jobs = {
      old: job('old', 'serial:/dev/a', { startedAt: '2026-01-01T00:00:00.000Z', phase: 'failed' }),
      new: job('new', 'serial:/dev/a', { startedAt: '2026-01-01T00:01:00.000Z', phase: 'done' }),
    };
    expect(jobForDevice(device('serial:/dev/a'), jobs)?.jobId).toBe('new');
    expect(jobForDevice(device('serial:/dev/a', { activeJobId: 'old' }), jobs)?.jobId).toBe('old');
    expect(jobForDevice(device('serial:/dev/z'), jobs)).toBeNull();
  });

  it('starts jobs on the chosen devices and keeps what the core answered', async () => {
    const api = new FakeApi()
      .answer('workbench.start', (input) =>
        input.linkIds.map((linkId, i) => job(`j${i}`, linkId, { action: input.action ?? 'firmware' })),
      )
      .install();
    await useWorkbench.getState().start('both', ['serial:/dev/a', 'serial:/dev/b']);
    expect(api.calls[0]).toEqual({
      channel: 'workbench.start',
      input: { action: 'both', linkIds: ['serial:/dev/a', 'serial:/dev/b'] },
    });
    expect(Object.values(useWorkbench.getState().jobs).map((j) => j.action)).toEqual(['both', 'both']);
  });
});
