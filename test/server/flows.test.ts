import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor, verifyConfigFile } from '../../domain/files';
import { cloneFlow, FLOW_SERIAL_NUMBERS, TYPICAL_FLOWS, type TypicalFlow } from '../fixtures/typical-flows';
import { backends, buildFlowConfiguration, codes, register } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * The six typical flows of the interface, built through the API (create, add devices), until
 * every device's configuration file downloads, its signature verifies with the service's public
 * key and its syncId matches the header. Then each flow's likely mistakes, reported through the
 * operation that accepts them.
 */
describe.each(backends())('typical flows on %s', (backend) => {
  const env = serviceForTests(backend);
  let publicKeyPem: string;

  beforeAll(async () => {
    await register(env, Object.keys(FLOW_SERIAL_NUMBERS));
    const key = await env.call('GET', '/v1/config-file-signing-key', { key: null });
    expect(key.json.data.algorithm).toBe('ES256');
    publicKeyPem = key.json.data.publicKeyPem;
  });

  const build = (flow: TypicalFlow, orgKey?: string) => buildFlowConfiguration(env, flow, orgKey);

  for (const flow of TYPICAL_FLOWS) {
    it(`${flow.title}: every device's file downloads, verifies and names its syncId`, async () => {
      const id = await build(flow);
      const status = await env.call('GET', `/configurations/validate/${id}`);
      expect(status.json.data).toMatchObject({ configurationId: id, complete: true, errors: [] });
      expect(status.json.data.readyDevices.sort()).toEqual(flow.devices.map((d) => d.payload.serialNumber).sort());

      const syncIds = new Set<string>();
      for (const device of flow.devices) {
        const serial = device.payload.serialNumber;
        const response = await env.call('GET', `/devices/${serial}/configuration-file`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/cbor');
        const header = response.headers.get('x-config-file-sync-id');
        const file = verifyConfigFile(response.bytes, { rootKeyPem: publicKeyPem, expectedSerialNumber: serial });
        expect(file.syncId).toBe(header);
        expect((decodeCbor(response.bytes) as { syncId: string }).syncId).toBe(header);
        expect(file.content).toMatchObject({
          serialNumber: serial,
          deviceType: device.deviceType,
          configurationId: id,
          blank: false,
        });
        expect(file.content.peers.map((p) => p.serialNumber).sort()).toEqual(
          flow.devices
            .map((d) => d.payload.serialNumber)
            .filter((s) => s !== serial)
            .sort(),
        );
        expect(file.content.safety.timeoutConfiguration).toBe(flow.configuration.timeoutConfiguration);
        expect(file.content.device.deviceConfigurationType).toBe(device.payload.deviceConfigurationType);
        // IP devices always carry an address: their own or one assigned from startingIpAddress.
        if (/Ethernet|Wifi/.test(String(device.payload.commInterface)))
          expect(file.content.device.ipAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
        syncIds.add(file.syncId);

        const confirmed = await env.call('POST', `/devices/${serial}/confirm-apply-configuration`, {
          body: {
            configurationFileSuccessfullyDeployed: true,
            syncId: file.syncId,
            error: null,
            applyTimeStamp: new Date().toISOString(),
          },
        });
        expect(confirmed.json).toEqual({ data: true, success: true, errors: null });
        const device_ = await env.call('GET', `/devices?serial=${serial}`);
        expect(device_.json.data.items[0]).toMatchObject({
          deployStatus: 'Deployed',
          deployedSyncId: file.syncId,
          configurationId: id,
        });
      }
      expect(syncIds.size).toBe(flow.devices.length);
      // Free the devices for the next flow.
      expect((await env.call('DELETE', `/configurations/${id}`)).json.data).toEqual({ id, deleted: true });
    });
  }

  it('assigns addresses from startingIpAddress in the order devices were added', async () => {
    const flow = cloneFlow(TYPICAL_FLOWS.find((f) => f.key === 'epc-to-several-epcs-over-ethernet')!);
    const id = await build(flow);
    const record = await env.call('GET', `/configurations/${id}`);
    expect(
      record.json.data.devices.map((d: { ipAddress: string | null; assignedIpAddress: string }) => [
        d.ipAddress,
        d.assignedIpAddress,
      ]),
    ).toEqual([
      [null, '10.20.0.10'],
      [null, '10.20.0.11'],
      [null, '10.20.0.12'],
    ]);
    const file = await env.call('GET', '/devices/EPC000103/configuration-file');
    const content = verifyConfigFile(file.bytes, { rootKeyPem: publicKeyPem }).content;
    expect(content.device.ipAddress).toBe('10.20.0.12');
    expect(content.peers.map((p) => p.ipAddress)).toEqual(['10.20.0.10', '10.20.0.11']);
    await env.call('DELETE', `/configurations/${id}`);
  });

  for (const flow of TYPICAL_FLOWS) {
    for (const mistake of flow.mistakes) {
      it(`${flow.title}: ${mistake.description} is reported as ${mistake.expected.code}`, async () => {
        const broken = cloneFlow(flow);
        mistake.apply(broken);
        let key: string | undefined;
        let options = {};
        if (broken.region !== 'NA') {
          const orgId = `flow-${broken.region.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`;
          key = await env.createOrg(orgId, broken.region);
          options = { key, orgId };
        }
        const reported: { code: string; field?: string }[] = [];
        const created = await env.call('POST', '/configurations', { ...options, body: broken.configuration });
        let id: string | undefined;
        if (created.status === 201) id = created.json.data.id;
        else {
          expect(created.status).toBe(400);
          reported.push(...(created.json.errors ?? []));
        }
        const added: string[] = [];
        try {
          if (id && !key) {
            for (const device of broken.devices) {
              if (!(device.payload.serialNumber in FLOW_SERIAL_NUMBERS))
                await register(env, [device.payload.serialNumber]);
              // The dry run answers what the add would, without adding.
              const dry = await env.call('POST', `/configurations/${id}/devices?dryRun=true`, { body: device.payload });
              reported.push(...(dry.json.errors ?? []));
              const add = await env.call('POST', `/configurations/${id}/devices`, { body: device.payload });
              if (add.status === 201) {
                expect(dry.json).toEqual({ data: null, success: true, errors: [] });
                added.push(device.payload.serialNumber);
              } else {
                expect(add.status).toBe(400);
                expect(dry.status).toBe(400);
                expect(add.json.errors).toEqual(dry.json.errors);
              }
            }
            const status = await env.call('GET', `/configurations/validate/${id}`);
            reported.push(...status.json.data.errors, ...status.json.data.warnings);
            if (!status.json.data.complete && added.length > 0) {
              const file = await env.call('GET', `/devices/${added[0]}/configuration-file`);
              expect(file.status).toBe(409);
              expect(codes(file)[0]).toBe('CONFIGURATION_INCOMPLETE');
              expect(codes(file).slice(1)).toEqual(status.json.data.errors.map((e: { code: string }) => e.code));
            }
          }
          expect(reported).toContainEqual(expect.objectContaining(mistake.expected));
        } finally {
          if (id) await env.call('DELETE', `/configurations/${id}`, options);
        }
      });
    }
  }
});
