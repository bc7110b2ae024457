import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationWithKey, openDatabase, startService } from '../../server';
import { runInProcess, useOperatorDataDir } from './cli-run';
import { backends, codes, register } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * A resold device: the organization that holds it releases it (DELETE devices/{serialNumber}, or
 * the operator's `devices release ORG SERIAL`), and another organization registers it and works
 * with it as if new. Nobody else can release it.
 */
describe.each(backends())('releasing a device on %s', (backend) => {
  const env = serviceForTests(backend);
  let orgB: string;
  const SERIAL = 'EPC000103';

  const confirmBlank = (syncId: string, key?: string) =>
    env.call('POST', `/devices/${SERIAL}/confirm-apply-configuration`, {
      ...(key ? { key } : {}),
      body: {
        configurationFileSuccessfullyDeployed: true,
        syncId,
        error: null,
        applyTimeStamp: '2026-01-02T03:04:05.000Z',
      },
    });

  beforeAll(async () => {
    orgB = await env.createOrg('buyer', 'NA');
  });

  it('org A releases, org B registers and starts afresh', async () => {
    await register(env, [SERIAL]);
    expect((await env.call('PATCH', `/devices/${SERIAL}?name=Press%204`)).status).toBe(200);
    const blankA = (await env.call('GET', `/devices/${SERIAL}/configuration-file/blank`)).headers.get(
      'x-config-file-sync-id',
    )!;
    expect((await confirmBlank(blankA)).json.data).toBe(true);
    const firmware = await env.call('POST', `/devices/${SERIAL}/confirm-apply-firmware`, {
      body: {
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '1.1.0',
        error: null,
        applyTimeStamp: '2026-01-02T03:04:05.000Z',
      },
    });
    expect(firmware.json.data).toBe(true);

    const claimed = await env.call('POST', `/devices?serialNumber=${SERIAL}&name=Mine`, { key: orgB, orgId: 'buyer' });
    expect(codes(claimed)).toEqual(['DEVICE_REGISTERED_ELSEWHERE']);

    const released = await env.call('DELETE', `/devices/${SERIAL}`);
    expect(released.status).toBe(200);
    expect(released.json.data).toEqual({ serialNumber: SERIAL, released: true });
    expect((await env.call('GET', `/devices?serial=${SERIAL}`)).json.data.totalCount).toBe(0);

    const registered = await env.call('POST', `/devices?serialNumber=${SERIAL}&name=Line%201`, {
      key: orgB,
      orgId: 'buyer',
    });
    expect(registered.status).toBe(201);
    expect(registered.json.data).toMatchObject({
      serialNumber: SERIAL,
      name: 'Line 1',
      firmwareVersion: null,
      lastFirmwareApply: null,
      lastConfigurationApply: null,
      deployStatus: 'NotDeployed',
    });

    // The buyer's files carry syncIds of its own, which it can confirm; the seller's syncId is not the buyer's.
    const blankB = (
      await env.call('GET', `/devices/${SERIAL}/configuration-file/blank`, { key: orgB, orgId: 'buyer' })
    ).headers.get('x-config-file-sync-id')!;
    expect(blankB).not.toBe(blankA);
    const confirmB = (syncId: string) =>
      env.call('POST', `/devices/${SERIAL}/confirm-apply-configuration`, {
        key: orgB,
        orgId: 'buyer',
        body: {
          configurationFileSuccessfullyDeployed: true,
          syncId,
          error: null,
          applyTimeStamp: '2026-01-02T03:04:05.000Z',
        },
      });
    expect(codes(await confirmB(blankA))).toEqual(['SYNC_ID_NOT_ISSUED']);
    expect((await confirmB(blankB)).json.data).toBe(true);
    const record = (await env.call('GET', `/devices?serial=${SERIAL}`, { key: orgB, orgId: 'buyer' })).json.data
      .items[0];
    expect(record.lastConfigurationApply).toMatchObject({ syncId: blankB, success: true });

    // The seller no longer reaches it.
    expect(codes(await confirmBlank(blankA))).toEqual(['DEVICE_NOT_FOUND']);
    expect(codes(await env.call('DELETE', `/devices/${SERIAL}`))).toEqual(['DEVICE_NOT_FOUND']);
  });

  it('no organization releases a device another one holds', async () => {
    await register(env, ['EPC000104']);
    const response = await env.call('DELETE', '/devices/EPC000104', { key: orgB, orgId: 'buyer' });
    expect(response.status).toBe(404);
    expect(codes(response)).toEqual(['DEVICE_NOT_FOUND']);
    expect((await env.call('GET', '/devices?serial=EPC000104')).json.data.totalCount).toBe(1);
  });

  it('a device in a configuration stays until it is removed from it', async () => {
    await register(env, ['SRCP000104']);
    const id = (await env.call('POST', '/configurations', { body: { name: 'keeps its device' } })).json.data.id;
    expect(
      (await env.call('POST', `/configurations/${id}/devices`, { body: { serialNumber: 'SRCP000104' } })).status,
    ).toBe(201);
    const refused = await env.call('DELETE', '/devices/SRCP000104');
    expect(refused.status).toBe(409);
    expect(codes(refused)).toEqual(['DEVICE_IN_CONFIGURATION']);
    expect(
      (await env.call('GET', `/configurations/${id}`)).json.data.devices.map(
        (d: { serialNumber: string }) => d.serialNumber,
      ),
    ).toEqual(['SRCP000104']);
    expect((await env.call('DELETE', `/configurations/${id}/devices/SRCP000104`)).status).toBe(200);
    expect((await env.call('DELETE', '/devices/SRCP000104')).status).toBe(200);
  });
});

describe('the operator releases a device', () => {
  const operator = useOperatorDataDir('release');
  const run = (args: string[]) => runInProcess([...args, '--data', operator.data]);

  it('devices release ORG SERIAL frees the device for another organization', async () => {
    const db = await openDatabase({ dataDir: operator.data });
    const seller = await createOrganizationWithKey(db, {
      orgId: 'seller-2',
      region: 'NA',
      keyName: 'admin',
      role: 'Admin',
    });
    const buyer = await createOrganizationWithKey(db, {
      orgId: 'buyer-2',
      region: 'NA',
      keyName: 'admin',
      role: 'Admin',
    });
    const service = await startService({ db, port: 0 });
    const call = (orgId: string, key: string, method: string, path: string) =>
      fetch(`${service.url}/v1/organizations/${orgId}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { errors: { code: string }[] | null } }));
    try {
      expect((await call('seller-2', seller, 'POST', '/devices?serialNumber=WESP000102&name=Gate')).status).toBe(201);
      expect(
        (await call('buyer-2', buyer, 'POST', '/devices?serialNumber=WESP000102&name=Gate')).body.errors?.map(
          (e) => e.code,
        ),
      ).toEqual(['DEVICE_REGISTERED_ELSEWHERE']);
    } finally {
      await service.close();
      await db.close();
    }

    expect(await run(['devices', 'release', 'buyer-2', 'WESP000102'])).toEqual({
      code: 1,
      out: '',
      err: 'Device WESP000102 is not registered in organization "buyer-2".',
    });
    expect(await run(['devices', 'release', 'seller-2', 'WESP000102'])).toEqual({
      code: 0,
      out: 'released WESP000102 from organization seller-2\n',
      err: '',
    });

    const again = await openDatabase({ dataDir: operator.data });
    const service2 = await startService({ db: again, port: 0 });
    try {
      const registered = await fetch(
        `${service2.url}/v1/organizations/buyer-2/devices?serialNumber=WESP000102&name=Gate`,
        { method: 'POST', headers: { authorization: `Bearer ${buyer}` } },
      );
      expect(registered.status).toBe(201);
    } finally {
      await service2.close();
      await again.close();
    }
  });
});
