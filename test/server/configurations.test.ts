import { beforeAll, describe, expect, it } from 'vitest';
import { configurationRecordSchema, pageSchema } from '../../domain';
import { backends, codes, register } from './harness';
import { serviceForTests } from './helpers/service-env';

describe.each(backends())('configurations on %s', (backend) => {
  const env = serviceForTests(backend);

  beforeAll(async () => {
    await register(env, ['SRCP000101', 'SRCP000102', 'EPC000101', 'EPC000102', 'NSCP000101', 'WESP000101']);
  });

  const create = async (body: Record<string, unknown>) => {
    const response = await env.call('POST', '/configurations', { body });
    expect(response.status, JSON.stringify(response.json.errors)).toBe(201);
    return response.json.data;
  };

  it('accepts the observed payload forms and stores the canonical ones', async () => {
    const created = await create({
      name: '  Forms  ',
      timeoutConfiguration: 5000,
      ismTxPower: 'HIGH',
      canMode: 'J1939',
      ismNetworkId: 9,
      canKBitrate: 'BITRATE_500000',
    });
    expect(configurationRecordSchema.parse(created)).toBeTruthy();
    expect(created).toMatchObject({
      name: 'Forms',
      timeoutConfiguration: '5000ms',
      ismTxPower: 'High',
      canMode: 'j1939',
      ismNetworkId: 9,
      displayTextPgn: 65281,
      settingsPgn: 65282,
    });
    const added = await env.call('POST', `/configurations/${created.id}/devices`, {
      body: {
        serialNumber: 'EPC000101',
        commInterface: 'ethernet,ble',
        deviceConfigurationType: 'Receiver',
        ipAddress: '10.1.1.5',
      },
    });
    expect(added.json.data.devices[0]).toMatchObject({ commInterface: 'BLE,Ethernet', deviceType: 'EPC' });
    const { rows } = await env.db.query<{ settings: Record<string, unknown> }>(
      'SELECT settings FROM configurations WHERE id = $1',
      [created.id],
    );
    expect(rows[0]!.settings).toEqual({
      timeoutConfiguration: '5000ms',
      ismTxPower: 'High',
      canMode: 'j1939',
      ismNetworkId: 9,
      canKBitrate: 'BITRATE_500000',
    });
    const device = await env.db.query<{ settings: Record<string, unknown> }>(
      "SELECT settings FROM configuration_devices WHERE serial_number = 'EPC000101'",
    );
    expect(device.rows[0]!.settings).toEqual({
      commInterface: 'BLE,Ethernet',
      deviceConfigurationType: 'Receiver',
      ipAddress: '10.1.1.5',
    });
    await env.call('DELETE', `/configurations/${created.id}`);
  });

  it('reads, patches (null keeps a value), and deletes', async () => {
    const created = await create({ name: 'Patch me', ismTxChannel: 4, timeoutConfiguration: '250ms' });
    const read = await env.call('GET', `/configurations/${created.id}`);
    expect(read.json.data).toEqual(created);
    const patched = await env.call('PATCH', `/configurations/${created.id}`, {
      body: { ismTxChannel: null, timeoutConfiguration: '750ms', name: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toMatchObject({ name: 'Patch me', ismTxChannel: 4, timeoutConfiguration: '750ms' });
    expect(Date.parse(patched.json.data.lastEditedAt)).toBeGreaterThan(Date.parse(created.lastEditedAt));
    // Switching away from j1939 drops the PGNs that only meant something with it.
    await env.call('PATCH', `/configurations/${created.id}`, { body: { canMode: 'j1939', displayTextPgn: 0xff20 } });
    const switched = await env.call('PATCH', `/configurations/${created.id}`, { body: { canMode: 'none' } });
    expect(switched.json.data).toMatchObject({ canMode: 'none', displayTextPgn: null, settingsPgn: null });
    const deleted = await env.call('DELETE', `/configurations/${created.id}`);
    expect(deleted.json).toEqual({ data: { id: created.id, deleted: true }, success: true, errors: null });
    expect(codes(await env.call('GET', `/configurations/${created.id}`))).toEqual(['CONFIGURATION_NOT_FOUND']);
    expect((await env.call('DELETE', `/configurations/${created.id}`)).status).toBe(404);
    expect((await env.call('PATCH', `/configurations/${created.id}`, { body: {} })).status).toBe(404);
  });

  describe('a dry run answers as the real call would, in the envelope, and changes nothing', () => {
    /** The three operations that take dryRun, each with a change that passes and one that breaks an interface rule. */
    const OPERATIONS = [
      {
        name: 'configuration update',
        method: 'PATCH' as const,
        path: (id: string) => `/configurations/${id}`,
        passes: { ismTxChannel: 9, name: 'Renamed' },
        breaks: { ismTxChannel: 99 },
        broken: [{ code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel' }],
        realStatus: 200,
      },
      {
        name: 'device add',
        method: 'POST' as const,
        path: (id: string) => `/configurations/${id}/devices`,
        passes: { serialNumber: 'EPC000102', deviceConfigurationType: 'Receiver', commInterface: 'ISM' },
        breaks: {
          serialNumber: 'SRCP000102',
          deviceConfigurationType: 'Sender',
          commInterface: 'BLE',
          inputConfiguration1: 'ESTOP_TYPE_SWITCH',
        },
        broken: [{ code: 'INPUT_MUST_BE_NOT_USED', field: 'devices.SRCP000102.inputConfiguration1' }],
        realStatus: 201,
      },
      {
        name: 'device update',
        method: 'PATCH' as const,
        path: (id: string) => `/configurations/${id}/devices/SRCP000101`,
        passes: { commInterface: 'BLE' },
        breaks: { commInterface: 'BLE', inputConfiguration1: 'ESTOP_TYPE_SWITCH' },
        broken: [{ code: 'INPUT_MUST_BE_NOT_USED', field: 'devices.SRCP000101.inputConfiguration1' }],
        realStatus: 200,
      },
    ];

    for (const operation of OPERATIONS) {
      it(`${operation.name}: invalid is the real call's 400 with each error; valid is 200 with data null; the configuration reads the same after`, async () => {
        const created = await create({
          name: 'Dry',
          ismTxChannel: 3,
          canMode: 'canopen',
          canKBitrate: 'BITRATE_250000',
        });
        await env.call('POST', `/configurations/${created.id}/devices`, {
          body: { serialNumber: 'SRCP000101', deviceConfigurationType: 'Sender', commInterface: 'ISM' },
        });
        const before = (await env.call('GET', `/configurations/${created.id}`)).json.data;
        const dry = `${operation.path(created.id)}?dryRun=true`;

        const invalid = await env.call(operation.method, dry, { body: operation.breaks });
        expect(invalid.status).toBe(400);
        expect(invalid.json).toEqual({
          data: null,
          success: false,
          errors: operation.broken.map((e) => expect.objectContaining(e)),
        });
        const real = await env.call(operation.method, operation.path(created.id), { body: operation.breaks });
        expect(real.status).toBe(invalid.status);
        expect(real.json).toEqual(invalid.json);

        const valid = await env.call(operation.method, dry, { body: operation.passes });
        expect(valid.status).toBe(200);
        expect(valid.json).toEqual({ data: null, success: true, errors: [] });

        expect((await env.call('GET', `/configurations/${created.id}`)).json.data).toEqual(before);
        expect((await env.call('GET', '/devices?serial=EPC000102')).json.data.items[0].configurationId).toBeNull();
        // The change that passed the dry run passes for real too.
        expect((await env.call(operation.method, operation.path(created.id), { body: operation.passes })).status).toBe(
          operation.realStatus,
        );
        await env.call('DELETE', `/configurations/${created.id}`);
      });
    }

    it('answers a conflict or an unknown configuration as the real call does', async () => {
      expect(
        (await env.call('PATCH', '/configurations/3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f?dryRun=true', { body: {} }))
          .status,
      ).toBe(404);
      const created = await create({ name: 'Dry conflict' });
      await env.call('POST', `/configurations/${created.id}/devices`, { body: { serialNumber: 'SRCP000101' } });
      const again = await env.call('POST', `/configurations/${created.id}/devices?dryRun=true`, {
        body: { serialNumber: 'SRCP000101' },
      });
      expect(again.status).toBe(409);
      expect(codes(again)).toEqual(['DEVICE_ALREADY_IN_CONFIGURATION']);
      await env.call('DELETE', `/configurations/${created.id}`);
    });

    it('a rule of ours neither fails the dry run nor the write: it is a warning in the status', async () => {
      const created = await create({ name: 'Warned', canMode: 'none' });
      const device = {
        serialNumber: 'EPC000102',
        deviceConfigurationType: 'Receiver',
        commInterface: 'Ethernet',
        ipAddress: '192.168.1.20',
        ethNetmask: '255.255.255.0',
        ethGateway: '10.0.0.1',
      };
      const dry = await env.call('POST', `/configurations/${created.id}/devices?dryRun=true`, { body: device });
      expect(dry.json).toEqual({ data: null, success: true, errors: [] });
      expect((await env.call('POST', `/configurations/${created.id}/devices`, { body: device })).status).toBe(201);
      const status = (await env.call('GET', `/configurations/validate/${created.id}`)).json.data;
      expect(status.warnings).toEqual([
        expect.objectContaining({
          code: 'GATEWAY_OUTSIDE_SUBNET',
          field: 'devices.EPC000102.ethGateway',
          severity: 'warning',
        }),
      ]);
      expect(status.errors.map((e: { code: string }) => e.code)).not.toContain('GATEWAY_OUTSIDE_SUBNET');
      await env.call('DELETE', `/configurations/${created.id}`);
    });
  });

  it('adds, updates and removes devices; a device is in one configuration at a time, and must be registered', async () => {
    const a = await create({ name: 'A' });
    const b = await create({ name: 'B' });
    const added = await env.call('POST', `/configurations/${a.id}/devices`, {
      body: { serialNumber: 'NSCP000101', deviceConfigurationType: 'Receiver', stopCategory: 'CAT0' },
    });
    expect(added.status).toBe(201);
    expect(added.json.data.devices[0]).toMatchObject({
      serialNumber: 'NSCP000101',
      ossdEnabled: true,
      stopCategory: 'CAT0',
      wifiPasswordSet: false,
    });
    expect(
      codes(await env.call('POST', `/configurations/${a.id}/devices`, { body: { serialNumber: 'NSCP000101' } })),
    ).toEqual(['DEVICE_ALREADY_IN_CONFIGURATION']);
    const other = await env.call('POST', `/configurations/${b.id}/devices`, { body: { serialNumber: 'NSCP000101' } });
    expect(other.status).toBe(409);
    expect(codes(other)).toEqual(['DEVICE_IN_OTHER_CONFIGURATION']);
    const unregistered = await env.call('POST', `/configurations/${a.id}/devices`, {
      body: { serialNumber: 'NSCP000104' },
    });
    expect(unregistered.status).toBe(404);
    expect(unregistered.json.errors).toEqual([
      expect.objectContaining({ code: 'DEVICE_NOT_REGISTERED', field: 'serialNumber' }),
    ]);
    const unknown = await env.call('POST', `/configurations/${a.id}/devices`, { body: { serialNumber: 'NOPE0001' } });
    expect(codes(unknown)).toEqual(['DEVICE_NOT_REGISTERED']);

    const updated = await env.call('PATCH', `/configurations/${a.id}/devices/NSCP000101`, {
      body: { voltage: 'VOLTAGE_24V', can1Id: 4, ossdEnabled: false, serial0Usage: 'comms' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json.data.devices[0]).toMatchObject({
      voltage: 'VOLTAGE_24V',
      can1Id: 4,
      ossdEnabled: false,
      serial0Usage: 'comms',
      stopCategory: 'CAT0',
    });
    expect(codes(await env.call('PATCH', `/configurations/${a.id}/devices/EPC000101`, { body: {} }))).toEqual([
      'DEVICE_NOT_IN_CONFIGURATION',
    ]);

    const configurable = await env.call('GET', '/devices?configurableOnly=true&limit=30');
    expect(configurable.json.data.items.map((d: { serialNumber: string }) => d.serialNumber)).not.toContain(
      'NSCP000101',
    );
    const removed = await env.call('DELETE', `/configurations/${a.id}/devices/NSCP000101`);
    expect(removed.json.data.devices).toEqual([]);
    expect(codes(await env.call('DELETE', `/configurations/${a.id}/devices/NSCP000101`))).toEqual([
      'DEVICE_NOT_IN_CONFIGURATION',
    ]);
    expect(
      (await env.call('POST', `/configurations/${b.id}/devices`, { body: { serialNumber: 'NSCP000101' } })).status,
    ).toBe(201);
    // Deleting a configuration frees its devices.
    await env.call('DELETE', `/configurations/${b.id}`);
    expect((await env.call('GET', '/devices?serial=NSCP000101')).json.data.items[0].configurationId).toBeNull();
    await env.call('DELETE', `/configurations/${a.id}`);
  });

  it('lists with Search, the four SortOptions and pages from 1 with a total count', async () => {
    const names = ['Line alpha', 'line BETA', 'Line gamma', 'Other'];
    const ids: string[] = [];
    for (const name of names) ids.push((await create({ name })).id);
    const list = async (query: string) => {
      const response = await env.call('GET', `/configurations?${query}`);
      expect(response.status, JSON.stringify(response.json.errors)).toBe(200);
      pageSchema(configurationRecordSchema).parse(response.json.data);
      return response.json.data;
    };
    const byName = await list('Search=line&SortOptions=ConfigNameASC');
    expect(byName.items.map((c: { name: string }) => c.name)).toEqual(['Line alpha', 'line BETA', 'Line gamma']);
    expect((await list('Search=LINE&SortOptions=ConfigNameDESC')).items.map((c: { name: string }) => c.name)).toEqual([
      'Line gamma',
      'line BETA',
      'Line alpha',
    ]);
    await env.call('PATCH', `/configurations/${ids[0]}`, { body: { timeoutConfiguration: '500ms' } });
    expect((await list('Search=line&SortOptions=LastEditedDESC')).items[0].id).toBe(ids[0]);
    expect((await list('Search=line&SortOptions=LastEditedASC')).items.map((c: { id: string }) => c.id)).toEqual([
      ids[1],
      ids[2],
      ids[0],
    ]);
    const page1 = await list('Search=line&SortOptions=ConfigNameASC&Limit=2&Page=1');
    const page2 = await list('Search=line&SortOptions=ConfigNameASC&Limit=2&Page=2');
    expect(page1).toMatchObject({ page: 1, limit: 2, totalCount: 3 });
    expect(page2).toMatchObject({ page: 2, limit: 2, totalCount: 3 });
    expect([...page1.items, ...page2.items].map((c: { name: string }) => c.name)).toEqual([
      'Line alpha',
      'line BETA',
      'Line gamma',
    ]);
    expect((await list('Search=line&Page=9')).items).toEqual([]);
    // LIKE wildcards in a search match themselves.
    expect((await list('Search=%25')).totalCount).toBe(0);
    expect(codes(await env.call('GET', '/configurations?SortOptions=Newest'))).toEqual(['INVALID_ENUM_VALUE']);
    expect(codes(await env.call('GET', '/configurations?search=line'))).toEqual(['UNKNOWN_FIELD']);
    for (const id of ids) await env.call('DELETE', `/configurations/${id}`);
  });

  it('reports completeness with the status operation and 404 for an unknown id', async () => {
    const created = await create({ name: 'Status', timeoutConfiguration: '1000ms' });
    const status = await env.call('GET', `/configurations/validate/${created.id}`);
    expect(status.json.data).toEqual({
      configurationId: created.id,
      complete: false,
      errors: [expect.objectContaining({ code: 'NO_SENDER' }), expect.objectContaining({ code: 'NO_RECEIVER' })],
      warnings: [],
      readyDevices: [],
    });
    await env.call('POST', `/configurations/${created.id}/devices`, {
      body: { serialNumber: 'SRCP000102', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
    });
    await env.call('POST', `/configurations/${created.id}/devices`, {
      body: { serialNumber: 'WESP000101', deviceConfigurationType: 'Receiver', commInterface: 'BLE' },
    });
    expect((await env.call('GET', `/configurations/validate/${created.id}`)).json.data).toMatchObject({
      complete: true,
      errors: [],
      readyDevices: ['SRCP000102', 'WESP000101'],
    });
    expect((await env.call('GET', '/configurations/validate/3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f')).status).toBe(404);
    await env.call('DELETE', `/configurations/${created.id}`);
  });
});
