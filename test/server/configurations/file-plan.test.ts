import { beforeAll, describe, expect, it } from 'vitest';
import { refreshSettingsHashes } from '../../../server/configurations/files';
import { cloneFlow, srcpToEpcOverIsm } from '../../fixtures/typical-flows';
import { backends, buildFlowConfiguration, codes, downloadConfigFile, register, rootKeyPemOf } from '../harness';
import { serviceForTests } from '../helpers/service-env';

/**
 * A download takes its content from the plan kept in memory only while that plan is what the
 * database holds now: the content hash stored with every change decides, not whether this
 * instance has heard of the change yet.
 */
describe.each(backends())('configuration file plans on %s', (backend) => {
  const env = serviceForTests(backend);
  let rootKeyPem: string;
  let configurationId: string;

  const download = (serial: string) => downloadConfigFile(env, serial, rootKeyPem);

  beforeAll(async () => {
    rootKeyPem = await rootKeyPemOf(env);
    await register(env, ['SRCP000101', 'EPC000101', 'WESP000101']);
    configurationId = await buildFlowConfiguration(env, cloneFlow(srcpToEpcOverIsm));
  });

  it('makes the file of what the database holds now, though the plan in memory missed the change', async () => {
    const before = await download('SRCP000101');
    expect((await download('SRCP000101')).syncId).toBe(before.syncId);
    // Changed underneath the service (as another instance whose announcement was not heard yet):
    // on PGlite nothing drops the plan this instance keeps.
    await env.db.query(
      `UPDATE configurations SET settings = settings || '{"timeoutConfiguration": "4000ms"}'::jsonb WHERE id = $1`,
      [configurationId],
    );
    await refreshSettingsHashes(env.db, env.service.ctx, env.orgId, configurationId);
    const after = await download('SRCP000101');
    expect(after.content.safety.timeoutConfiguration).toBe('4000ms');
    expect(after.syncId).not.toBe(before.syncId);
    expect(after.sequence).toBeGreaterThan(before.sequence);
    // The device list's deploy status and the file agree on which syncId is current.
    expect((await download('SRCP000101')).syncId).toBe(after.syncId);
  });

  it('answers a device taken out of its configuration underneath the plan as in no configuration', async () => {
    await download('EPC000101');
    await env.db.query('DELETE FROM configuration_devices WHERE serial_number = $1', ['EPC000101']);
    const response = await env.call('GET', '/devices/EPC000101/configuration-file');
    expect(response.status).toBe(409);
    expect(codes(response)).toEqual(['DEVICE_NOT_IN_CONFIGURATION']);
  });

  it('answers an unknown device, and one in no configuration, as before', async () => {
    const unknown = await env.call('GET', '/devices/EPC999999/configuration-file');
    expect(unknown.status).toBe(404);
    expect(codes(unknown)).toEqual(['DEVICE_NOT_FOUND']);
    const unconfigured = await env.call('GET', '/devices/WESP000101/configuration-file');
    expect(unconfigured.status).toBe(409);
    expect(codes(unconfigured)).toEqual(['DEVICE_NOT_IN_CONFIGURATION']);
  });
});
