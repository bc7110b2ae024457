import { beforeAll, describe, expect, it } from 'vitest';
import { readFirmwareBundle, verifyConfigFile } from '../../domain/files';
import { cloneFlow, srcpToEpcOverBle, srcpToEpcOverIsm } from '../fixtures/typical-flows';
import { backends, buildFlowConfiguration, codes, downloadConfigFile, register, rootKeyPemOf } from './harness';
import { serviceForTests } from './helpers/service-env';

describe.each(backends())('files, syncIds and confirmations on %s', (backend) => {
  const env = serviceForTests(backend);
  let publicKeyPem: string;
  let configurationId: string;

  const download = (serial: string) => downloadConfigFile(env, serial, publicKeyPem);

  async function device(serial: string) {
    return (await env.call('GET', `/devices?serial=${serial}`)).json.data.items[0];
  }

  const confirmConfiguration = (serial: string, body: Record<string, unknown>) =>
    env.call('POST', `/devices/${serial}/confirm-apply-configuration`, {
      body: { error: null, applyTimeStamp: '2025-06-01T08:00:00Z', ...body },
    });

  async function confirmationRows(serial: string): Promise<number> {
    const { rows } = await env.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM confirmations WHERE serial_number = $1',
      [serial],
    );
    return rows[0]!.n;
  }

  beforeAll(async () => {
    publicKeyPem = await rootKeyPemOf(env);
    await register(env, ['SRCP000101', 'EPC000101', 'EPC000102', 'WESP000101', 'NSCP000104']);
    configurationId = await buildFlowConfiguration(env, cloneFlow(srcpToEpcOverIsm));
  });

  it('gives the same syncId for the same content and a new one for any change, own or a peer’s', async () => {
    const first = await download('SRCP000101');
    expect((await download('SRCP000101')).syncId).toBe(first.syncId);
    const peerBefore = await download('EPC000101');

    // A safety parameter: both devices change.
    await env.call('PATCH', `/configurations/${configurationId}`, { body: { timeoutConfiguration: 3000 } });
    const second = await download('SRCP000101');
    expect(second.syncId).not.toBe(first.syncId);
    expect(second.content.safety.timeoutConfiguration).toBe('3000ms');
    expect((await download('EPC000101')).syncId).not.toBe(peerBefore.syncId);

    // What the SRCP's file says about a peer (its interfaces): the SRCP's syncId changes too.
    await env.call('PATCH', `/configurations/${configurationId}/devices/EPC000101`, {
      body: { commInterface: 'ble,ism' },
    });
    const third = await download('SRCP000101');
    expect(third.syncId).not.toBe(second.syncId);
    expect(third.content.peers[0]!.commInterface).toBe('BLE,ISM');

    // A peer setting its file does not describe (the EPC's CAN id) leaves the SRCP's file as it is.
    const epcBefore = await download('EPC000101');
    await env.call('PATCH', `/configurations/${configurationId}/devices/EPC000101`, { body: { can0Id: 7 } });
    expect((await download('SRCP000101')).syncId).toBe(third.syncId);
    expect((await download('EPC000101')).syncId).not.toBe(epcBefore.syncId);

    // Back to the first content: the syncId issued for it comes back.
    await env.call('PATCH', `/configurations/${configurationId}/devices/EPC000101`, {
      body: { can0Id: 1, commInterface: 'ISM' },
    });
    await env.call('PATCH', `/configurations/${configurationId}`, { body: { timeoutConfiguration: '1000ms' } });
    expect((await download('SRCP000101')).syncId).toBe(first.syncId);
  });

  it('keeps a device Deployed until its configuration changes, then Outdated; a failure reads Failed', async () => {
    const file = await download('EPC000101');
    expect(
      (await confirmConfiguration('EPC000101', { configurationFileSuccessfullyDeployed: true, syncId: file.syncId }))
        .json.data,
    ).toBe(true);
    expect(await device('EPC000101')).toMatchObject({ deployStatus: 'Deployed', deployedSyncId: file.syncId });

    await env.call('PATCH', `/configurations/${configurationId}`, { body: { ismTxPower: 'low' } });
    expect((await device('EPC000101')).deployStatus).toBe('Outdated');

    const newer = await download('EPC000101');
    await confirmConfiguration('EPC000101', {
      configurationFileSuccessfullyDeployed: false,
      syncId: newer.syncId,
      error: 'CRC error',
      applyTimeStamp: '2025-06-01T09:00:00Z',
    });
    expect(await device('EPC000101')).toMatchObject({
      deployStatus: 'Failed',
      deployedSyncId: file.syncId,
      lastConfigurationApply: {
        success: false,
        syncId: newer.syncId,
        error: 'CRC error',
        appliedAt: '2025-06-01T09:00:00.000Z',
      },
    });

    await confirmConfiguration('EPC000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: newer.syncId,
      applyTimeStamp: '2025-06-01T10:00:00Z',
    });
    expect((await device('EPC000101')).deployStatus).toBe('Deployed');

    // Applying the older file (a syncId issued for this device, no longer current) is Outdated.
    await confirmConfiguration('EPC000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: file.syncId,
      applyTimeStamp: '2025-06-01T11:00:00Z',
    });
    expect((await device('EPC000101')).deployStatus).toBe('Outdated');
    await env.call('PATCH', `/configurations/${configurationId}`, { body: { ismTxPower: 'High' } });
  });

  it('answers a replayed confirmation with the same result and records it once', async () => {
    const file = await download('SRCP000101');
    const body = {
      configurationFileSuccessfullyDeployed: true,
      syncId: file.syncId,
      applyTimeStamp: '2025-07-01T08:00:00+02:00',
    };
    const before = await confirmationRows('SRCP000101');
    const first = await confirmConfiguration('SRCP000101', body);
    const again = await confirmConfiguration('SRCP000101', body);
    // The same instant written in UTC is the same confirmation.
    const utc = await confirmConfiguration('SRCP000101', { ...body, applyTimeStamp: '2025-07-01T06:00:00Z' });
    expect([first.json, again.json, utc.json]).toEqual([first.json, first.json, first.json]);
    expect(first.json).toEqual({ data: true, success: true, errors: null });
    expect(await confirmationRows('SRCP000101')).toBe(before + 1);
  });

  it('does not let an older confirmation (replayed late) replace a newer one', async () => {
    const file = await download('SRCP000101');
    await confirmConfiguration('SRCP000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: file.syncId,
      applyTimeStamp: '2025-08-01T12:00:00Z',
    });
    await confirmConfiguration('SRCP000101', {
      configurationFileSuccessfullyDeployed: false,
      syncId: file.syncId,
      error: 'old failure',
      applyTimeStamp: '2025-08-01T11:00:00Z',
    });
    expect(await device('SRCP000101')).toMatchObject({
      deployStatus: 'Deployed',
      lastConfigurationApply: { success: true, appliedAt: '2025-08-01T12:00:00.000Z' },
    });
  });

  it('refuses a syncId the service did not issue for that device', async () => {
    const unknown = await confirmConfiguration('SRCP000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: '3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors).toEqual([expect.objectContaining({ code: 'SYNC_ID_NOT_ISSUED', field: 'syncId' })]);
    const othersId = (await download('EPC000101')).syncId;
    const other = await confirmConfiguration('SRCP000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: othersId,
    });
    expect(codes(other)).toEqual(['SYNC_ID_NOT_ISSUED']);
    const notUuid = await confirmConfiguration('SRCP000101', {
      configurationFileSuccessfullyDeployed: true,
      syncId: 'abc',
    });
    expect(notUuid.json.errors).toEqual([expect.objectContaining({ code: 'INVALID_UUID', field: 'syncId' })]);
  });

  it('answers 409 with the reasons while a device is in no configuration or its configuration is incomplete', async () => {
    const free = await env.call('GET', '/devices/WESP000101/configuration-file');
    expect(free.status).toBe(409);
    expect(codes(free)).toEqual(['DEVICE_NOT_IN_CONFIGURATION']);

    const incomplete = (await env.call('POST', '/configurations', { body: { name: 'half done' } })).json.data.id;
    await env.call('POST', `/configurations/${incomplete}/devices`, {
      body: { serialNumber: 'WESP000101', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
    });
    const response = await env.call('GET', '/devices/WESP000101/configuration-file');
    expect(response.status).toBe(409);
    expect(codes(response)).toEqual(['CONFIGURATION_INCOMPLETE', 'NO_RECEIVER', 'TIMEOUT_CONFIGURATION_MISSING']);
    expect(response.json.success).toBe(false);
    // Nothing was issued for an incomplete configuration.
    const { rows } = await env.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sync_ids WHERE serial_number = 'WESP000101'",
    );
    expect(rows[0]!.n).toBe(0);
    await env.call('DELETE', `/configurations/${incomplete}`);
  });

  it('serves a signed blank file with a stable syncId of its own', async () => {
    const a = await env.call('GET', '/devices/WESP000101/configuration-file/blank');
    const b = await env.call('GET', '/devices/WESP000101/configuration-file/blank');
    const file = verifyConfigFile(a.bytes, { rootKeyPem: publicKeyPem, expectedSerialNumber: 'WESP000101' });
    expect(file.content).toMatchObject({
      blank: true,
      configurationId: null,
      device: {},
      peers: [],
      safety: {},
      deviceType: 'WESP',
    });
    expect(a.headers.get('x-config-file-sync-id')).toBe(file.syncId);
    expect(b.headers.get('x-config-file-sync-id')).toBe(file.syncId);
    expect(file.syncId).not.toBe(
      (await env.call('GET', '/devices/SRCP000101/configuration-file/blank')).headers.get('x-config-file-sync-id'),
    );
    expect(
      (await confirmConfiguration('WESP000101', { configurationFileSuccessfullyDeployed: true, syncId: file.syncId }))
        .json.data,
    ).toBe(true);
    const missing = await env.call('GET', '/devices/EPC000104/configuration-file/blank');
    expect(missing.status).toBe(404);
  });

  it('keeps Wifi passwords out of every response but puts them in the device’s file', async () => {
    const template = await env.call('POST', '/ipNetworkTemplates', {
      body: {
        ipNetworkTemplateName: 'Shop Wifi',
        commInterface: 'wifi',
        netmask: '255.255.255.0',
        gatewayIpAddress: '10.9.0.1',
        ssid: 'shop',
        password: 'template-secret',
      },
    });
    expect(template.json.data).toMatchObject({ commInterface: 'Wifi', passwordSet: true });
    expect(JSON.stringify(template.json)).not.toContain('template-secret');
    const flow = cloneFlow(srcpToEpcOverBle);
    const id = (await env.call('POST', '/configurations', { body: { ...flow.configuration, name: 'wifi test' } })).json
      .data.id;
    await env.call('POST', `/configurations/${id}/devices`, {
      body: {
        serialNumber: 'EPC000102',
        deviceConfigurationType: 'Sender',
        commInterface: 'wifi,ble',
        ipAddress: '10.9.0.20',
        networkTemplateId: template.json.data.id,
      },
    });
    const added = await env.call('POST', `/configurations/${id}/devices`, {
      body: {
        serialNumber: 'NSCP000104',
        deviceConfigurationType: 'Receiver',
        commInterface: 'Wifi',
        ipAddress: '10.9.0.21',
        wifiNetmask: '255.255.255.0',
        wifiSsid: 'own',
        wifiPassword: 'device-secret',
        stopCategory: 'CAT0',
      },
    });
    expect(added.status, JSON.stringify(added.json.errors)).toBe(201);
    const record = await env.call('GET', `/configurations/${id}`);
    expect(JSON.stringify(record.json)).not.toMatch(/secret/);
    expect(record.json.data.devices.map((d: { wifiPasswordSet: boolean }) => d.wifiPasswordSet)).toEqual([false, true]);
    expect((await env.call('GET', `/configurations/validate/${id}`)).json.data.complete).toBe(true);
    const sender = await download('EPC000102');
    expect(sender.content.device).toMatchObject({
      wifiSsid: 'shop',
      wifiPassword: 'template-secret',
      wifiGateway: '10.9.0.1',
      commInterface: 'BLE,Wifi',
    });
    const receiver = await download('NSCP000104');
    expect(receiver.content.device).toMatchObject({
      wifiSsid: 'own',
      wifiPassword: 'device-secret',
      ossdEnabled: true,
    });
    // A new password is a new file.
    await env.call('PATCH', `/configurations/${id}/devices/NSCP000104`, { body: { wifiPassword: 'rotated-secret' } });
    const rotated = await download('NSCP000104');
    expect(rotated.syncId).not.toBe(receiver.syncId);
    expect(rotated.content.device.wifiPassword).toBe('rotated-secret');
    // What each syncId set can be read back by the syncId alone, for the change view before an
    // apply; the password only as a keyed hash, so a change shows and the secret never does.
    const issued = async (syncId: string) => env.call('GET', `/devices/NSCP000104/sync-ids/${syncId}`);
    const first = await issued(receiver.syncId);
    const second = await issued(rotated.syncId);
    expect(first.status).toBe(200);
    expect(JSON.stringify([first.json, second.json])).not.toMatch(/secret/);
    const { wifiPassword: firstHash, ...firstDevice } = first.json.data.settings.device;
    const { wifiPassword: _password, ...fileDevice } = receiver.content.device;
    expect(firstDevice).toEqual(fileDevice);
    expect(first.json.data.settings.safety).toEqual(receiver.content.safety);
    expect(first.json.data.settings.peers).toEqual(receiver.content.peers);
    expect(first.json.data).toMatchObject({ syncId: receiver.syncId, serialNumber: 'NSCP000104', configurationId: id });
    expect(firstHash).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(second.json.data.settings.device.wifiPassword).toMatch(/^hmac-sha256:/);
    expect(second.json.data.settings.device.wifiPassword).not.toBe(firstHash);
    // Another device's syncId, or one never issued, is not found: nothing leaks across devices.
    expect(codes(await env.call('GET', `/devices/EPC000102/sync-ids/${receiver.syncId}`))).toEqual([
      'SYNC_ID_NOT_FOUND',
    ]);
    expect((await env.call('GET', `/devices/NSCP000104/sync-ids/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
    // Leaving Wifi drops the stored password with the other Wifi fields.
    await env.call('PATCH', `/configurations/${id}/devices/NSCP000104`, { body: { commInterface: 'BLE' } });
    const after = await env.call('GET', `/configurations/${id}`);
    expect(after.json.data.devices[1]).toMatchObject({ wifiPasswordSet: false, wifiSsid: null, commInterface: 'BLE' });
    await env.call('DELETE', `/configurations/${id}`);
  });

  it('records firmware confirmations: a success sets the version, a failure keeps it, a replay changes nothing', async () => {
    const confirm = (body: Record<string, unknown>) =>
      env.call('POST', '/devices/WESP000101/confirm-apply-firmware', { body });
    expect(
      (
        await confirm({
          firmwareFileSuccessfullyDeployed: true,
          firmwareVersion: '1.0.0',
          applyTimeStamp: '2025-01-01T00:00:00Z',
        })
      ).json.data,
    ).toBe(true);
    expect((await device('WESP000101')).firmwareVersion).toBe('1.0.0');
    const failure = {
      firmwareFileSuccessfullyDeployed: false,
      error: 'verify failed',
      firmwareVersion: '1.1.0',
      applyTimeStamp: '2025-01-02T00:00:00Z',
    };
    const before = await confirmationRows('WESP000101');
    await confirm(failure);
    await confirm(failure);
    expect(await confirmationRows('WESP000101')).toBe(before + 1);
    expect(await device('WESP000101')).toMatchObject({
      firmwareVersion: '1.0.0',
      lastFirmwareApply: {
        success: false,
        error: 'verify failed',
        firmwareVersion: '1.1.0',
        appliedAt: '2025-01-02T00:00:00.000Z',
      },
    });
    // null reads as "not deployed", as the interface types the field boolean-or-null.
    expect(
      (await confirm({ firmwareFileSuccessfullyDeployed: null, applyTimeStamp: '2025-01-03T00:00:00Z' })).status,
    ).toBe(200);
    const missingVersion = await confirm({
      firmwareFileSuccessfullyDeployed: true,
      applyTimeStamp: '2025-01-04T00:00:00Z',
    });
    expect(missingVersion.status).toBe(400);
    expect(codes(missingVersion)).toEqual(['FIRMWARE_VERSION_REQUIRED']);
    const badTime = await confirm({
      firmwareFileSuccessfullyDeployed: true,
      firmwareVersion: '1.1.0',
      applyTimeStamp: 'yesterday',
    });
    expect(codes(badTime)).toEqual(['INVALID_DATE_TIME']);
    expect((await env.call('POST', '/devices/EPC000104/confirm-apply-firmware', { body: failure })).status).toBe(404);
  });

  it('serves the latest firmware bundle by serial number and by type, with its version', async () => {
    const byType = await env.call('GET', '/devices/types/EPC/firmware');
    expect(byType.headers.get('content-type')).toBe('application/zip');
    const bundle = readFirmwareBundle(byType.bytes, { deviceType: 'EPC', version: '1.1.0' });
    expect(byType.headers.get('x-firmware-version')).toBe('1.1.0');
    expect(byType.headers.get('x-firmware-sha256')).toBe(bundle.bundleSha256);
    const bySerial = await env.call('GET', '/devices/EPC000101/firmware');
    expect(Buffer.from(bySerial.bytes).equals(Buffer.from(byType.bytes))).toBe(true);
    expect((await env.call('GET', '/devices/EPC000101/firmware/version')).json.data).toEqual({
      deviceType: 'EPC',
      version: '1.1.0',
    });
    expect((await env.call('GET', '/devices/types/NSCP/firmware/version')).json.data).toEqual({
      deviceType: 'NSCP',
      version: '1.1.0',
    });
    const unknownType = await env.call('GET', '/devices/types/XYZ/firmware/version');
    expect(unknownType.status).toBe(400);
    expect(unknownType.json.errors).toEqual([
      expect.objectContaining({ code: 'INVALID_ENUM_VALUE', field: 'path.deviceType' }),
    ]);
    expect(codes(await env.call('GET', '/devices/EPC000104/firmware'))).toEqual(['DEVICE_NOT_FOUND']);
  });
});
