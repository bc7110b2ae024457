import { beforeAll, describe, expect, it } from 'vitest';
import { cloneFlow, srcpToEpcOverIsm } from '../fixtures/typical-flows';
import { backends, buildFlowConfiguration, register } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Confirmations as our clients send them: with what was observed, when, by which workstation and
 * why (our extension). An observation of a state the service already records adds nothing, from
 * whichever workstation and at whatever time; a state that changed is recorded again.
 */
describe.each(backends())('observed confirmations on %s', (backend) => {
  const env = serviceForTests(backend);

  async function device(serial: string) {
    return (await env.call('GET', `/devices?serial=${serial}`)).json.data.items[0];
  }

  async function rows(serial: string, kind: 'firmware' | 'configuration'): Promise<number> {
    const { rows } = await env.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1 AND kind = $2',
      [serial, kind],
    );
    return rows[0]!.n;
  }

  const firmware = (serial: string, body: Record<string, unknown>) =>
    env.call('POST', `/devices/${serial}/confirm-apply-firmware`, { body });
  const configuration = (serial: string, body: Record<string, unknown>) =>
    env.call('POST', `/devices/${serial}/confirm-apply-configuration`, { body });
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();

  beforeAll(async () => {
    await register(env, ['SRCP000101', 'EPC000101', 'WESP000101']);
  });

  it('keeps who observed it, when and why with the device’s last apply', async () => {
    const observedAt = at(2);
    const answer = await firmware('WESP000101', {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.0.0',
      applyTimeStamp: observedAt,
      observedAt,
      workstation: 'bench-a',
      reason: 'observation',
    });
    expect(answer.json).toEqual({ data: true, success: true, errors: null });
    expect(await device('WESP000101')).toMatchObject({
      firmwareVersion: '1.0.0',
      lastFirmwareApply: {
        success: true,
        firmwareVersion: '1.0.0',
        appliedAt: new Date(observedAt).toISOString(),
        observedAt: new Date(observedAt).toISOString(),
        workstation: 'bench-a',
        reason: 'observation',
      },
    });
  });

  it('records an observation of the same firmware once, whichever workstation saw it and when', async () => {
    const observe = (workstation: string, observedAt: string) =>
      firmware('SRCP000101', {
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '1.0.0',
        applyTimeStamp: observedAt,
        observedAt,
        workstation,
        reason: 'observation',
      });
    const first = at(5);
    expect((await observe('bench-a', first)).json.data).toBe(true);
    expect((await observe('bench-b', at(4))).json.data).toBe(true);
    expect((await observe('bench-a', at(3))).json.data).toBe(true);
    expect(await rows('SRCP000101', 'firmware')).toBe(1);
    expect((await device('SRCP000101')).lastFirmwareApply).toMatchObject({ workstation: 'bench-a', observedAt: first });

    // A job installs 1.1.0; the device is later seen back on 1.0.0 (installed by another tool): that is new, and recorded.
    await firmware('SRCP000101', {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.1.0',
      applyTimeStamp: at(2),
      observedAt: at(2),
      workstation: 'bench-a',
      reason: 'job-result',
    });
    expect((await device('SRCP000101')).firmwareVersion).toBe('1.1.0');
    expect((await observe('bench-b', at(1))).json.data).toBe(true);
    expect(await rows('SRCP000101', 'firmware')).toBe(3);
    expect(await device('SRCP000101')).toMatchObject({
      firmwareVersion: '1.0.0',
      lastFirmwareApply: { workstation: 'bench-b', reason: 'observation' },
    });
  });

  it('records an observation of the same configuration once, and says which syncId the device should hold', async () => {
    const flow = cloneFlow(srcpToEpcOverIsm);
    const id = await buildFlowConfiguration(env, flow);
    expect((await device('EPC000101')).currentSyncId).toBeNull();
    const download = await env.call('GET', '/devices/EPC000101/configuration-file');
    const syncId = download.headers.get('x-config-file-sync-id');
    expect(syncId).toBeTruthy();
    expect(await device('EPC000101')).toMatchObject({
      currentSyncId: syncId,
      deployStatus: 'NotDeployed',
      deployedSyncId: null,
    });

    const observe = (workstation: string, hoursAgo: number) =>
      configuration('EPC000101', {
        configurationFileSuccessfullyDeployed: true,
        syncId,
        applyTimeStamp: at(hoursAgo),
        observedAt: at(hoursAgo),
        workstation,
        reason: 'observation',
      });
    expect((await observe('bench-a', 2)).json.data).toBe(true);
    expect((await observe('bench-b', 1)).json.data).toBe(true);
    expect(await rows('EPC000101', 'configuration')).toBe(1);
    expect(await device('EPC000101')).toMatchObject({
      deployStatus: 'Deployed',
      deployedSyncId: syncId,
      currentSyncId: syncId,
    });

    // The configuration changes: the device is Outdated and the service expects a file not issued yet.
    await env.call('PATCH', `/configurations/${id}`, { body: { ismTxChannel: 7 } });
    expect(await device('EPC000101')).toMatchObject({
      deployStatus: 'Outdated',
      deployedSyncId: syncId,
      currentSyncId: null,
    });
    await env.call('DELETE', `/configurations/${id}`);
    expect((await device('EPC000101')).currentSyncId).toBeNull();
  });

  it('still records replays of job results as the interface says: once per payload', async () => {
    const body = {
      firmwareFileSuccessfullyDeployed: false,
      error: 'verify failed',
      firmwareVersion: '1.1.0',
      applyTimeStamp: at(1),
      observedAt: at(1),
      workstation: 'bench-a',
      reason: 'job-result',
    };
    const before = await rows('WESP000101', 'firmware');
    await firmware('WESP000101', body);
    await firmware('WESP000101', body);
    expect(await rows('WESP000101', 'firmware')).toBe(before + 1);
  });

  it('refuses a reason it does not know, and takes the extension’s fields as optional', async () => {
    const unknown = await firmware('WESP000101', {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.0.0',
      applyTimeStamp: at(1),
      reason: 'rumour',
    });
    expect(unknown.status).toBe(400);
    const plain = await firmware('WESP000101', {
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.0.0',
      applyTimeStamp: at(0.5),
    });
    expect(plain.json.data).toBe(true);
    expect((await device('WESP000101')).lastFirmwareApply).not.toHaveProperty('workstation');
  });
});
