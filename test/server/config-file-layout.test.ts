import { beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_FORMAT_LAYOUT2,
  decodeCbor,
  sha256,
  verifyConfigFile,
} from '../../domain/files';
import { parseScm2, type Scm2Config } from '../../domain/vendor/scm2';
import { canonicalJson } from '../../server/store/json';
import { cloneFlow, epcToEpcOverEthernet, srcpToEpcOverIsm } from '../fixtures/typical-flows';
import { backends, buildFlowConfiguration, register, rootKeyPemOf } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * The file the service serves, as a client of the interface sees it over HTTP: layout 3, the
 * vendor's secure configuration map, whose CBOR body carries the syncId of the header, and whose
 * vendor view (scm2) of a typical configuration passes the vendor's own rules.
 */
describe.each(backends())('the served configuration file layout on %s', (backend) => {
  const env = serviceForTests(backend);
  let rootKeyPem: string;

  beforeAll(async () => {
    rootKeyPem = await rootKeyPemOf(env);
    await register(env, ['SRCP000101', 'EPC000101', 'EPC000102']);
  });

  async function served(serial: string) {
    const response = await env.call('GET', `/devices/${serial}/configuration-file`);
    expect(response.status, JSON.stringify(response.json?.errors)).toBe(200);
    const top = decodeCbor(response.bytes) as Record<string, unknown>;
    const data = decodeCbor(top['config-data'] as Uint8Array) as { body: { scm2: unknown } };
    return {
      response,
      top,
      scm2: parseScm2(data.body.scm2),
      file: verifyConfigFile(response.bytes, { rootKeyPem, expectedSerialNumber: serial }),
    };
  }

  it('serves the secure configuration map whose body carries the syncId of the header, the same at every download of the same content', async () => {
    const id = await buildFlowConfiguration(env, cloneFlow(srcpToEpcOverIsm));
    const first = await served('SRCP000101');
    const header = first.response.headers.get('x-config-file-sync-id');
    expect(header).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.top.syncId).toBe(header);
    expect(first.file.syncId).toBe(header);
    expect(first.file.content.format).toBe(CONFIG_FILE_FORMAT);
    expect(Object.keys(first.top)).toEqual([
      'config-data',
      'config-checksum',
      'r-component',
      's-component',
      'fso7-3',
      'syncId',
    ]);
    expect(first.top['config-checksum']).toBe(
      Buffer.from(sha256(first.top['config-data'] as Uint8Array)).toString('hex'),
    );
    const second = await served('SRCP000101');
    expect(second.top.syncId).toBe(header);
    expect(second.response.headers.get('x-config-file-sync-id')).toBe(header);
    // A new sequence each download: the signed bytes differ, the syncId does not.
    expect(second.file.sequence).toBeGreaterThan(first.file.sequence);
    await env.call('DELETE', `/configurations/${id}`);
  });

  it('names the content by the hash the service gave it in layout 2, so the move to layout 3 issued no new syncIds', async () => {
    const id = await buildFlowConfiguration(env, cloneFlow(epcToEpcOverEthernet));
    const { file } = await served('EPC000102');
    const { rows } = await env.db.query<{ hash: string }>(
      'SELECT current_settings_hash AS hash FROM configuration_devices WHERE serial_number = $1',
      ['EPC000102'],
    );
    // What the service hashed before layout 3: the file's settings, named as layout 2.
    const { syncId: _s, orgId: _o, sequence: _q, issuedAt: _i, ...settings } = file.content;
    expect(rows[0]!.hash).toBe(
      env.service.ctx.secrets.contentHash(canonicalJson({ ...settings, format: CONFIG_FILE_FORMAT_LAYOUT2 })),
    );
    await env.call('DELETE', `/configurations/${id}`);
  });

  it("gives an ISM pair a vendor view the vendor's rules accept, each device naming the other by the same ids", async () => {
    const id = await buildFlowConfiguration(env, cloneFlow(srcpToEpcOverIsm));
    const sender = (await served('SRCP000101')).scm2;
    const receiver = (await served('EPC000101')).scm2;
    const ism = { network_id: 12, txpwr: 27, txChannel: 5 };
    expect(sender).toMatchObject({
      SAFE: { ioDirection: 'In', safetyTimeout: 1000, safetyRate: 50 },
      NET: { ism0: { ...ism, connMode: 'TDMA-Base' }, can0: { bitrate: 250, mode: 'j1939' } },
    });
    expect(receiver).toMatchObject({
      SAFE: { ioDirection: 'Out' },
      NET: { ism0: { ...ism, connMode: 'TDMA-Remote' } },
    });
    expectPaired(sender, receiver, 'ism0');
    await env.call('DELETE', `/configurations/${id}`);
  });

  it("gives an Ethernet pair their addresses in the vendor view, which the vendor's rules accept", async () => {
    const id = await buildFlowConfiguration(env, cloneFlow(epcToEpcOverEthernet));
    const sender = (await served('EPC000101')).scm2;
    const receiver = (await served('EPC000102')).scm2;
    expect(sender.NET.eth0).toEqual({
      ip4: '192.168.10.11',
      netmask4: '255.255.255.0',
      gateway4: '192.168.10.1',
      nameservers4: ['192.168.10.1'],
      isDHCP: false,
    });
    expect(sender.NET).toMatchObject({ ism0: null, blue0: null, wlan0: null, can0: { bitrate: 500, mode: 'canopen' } });
    expect(sender.NET.peers['0']).toMatchObject({ deviceType: 'EPC', eth0: { ip4: '192.168.10.12' } });
    expect(receiver.SAFE).toMatchObject({ safetyTimeout: 500, safetyRate: 50 });
    expectPaired(sender, receiver, 'eth0');
    await env.call('DELETE', `/configurations/${id}`);
  });
});

/** Each side's safety id is the one the other's file gives it, and each cares for the other. */
function expectPaired(a: Scm2Config, b: Scm2Config, link: 'ism0' | 'eth0'): void {
  expect(a.SAFE.deviceId).not.toBe(b.SAFE.deviceId);
  const peerOfA = a.NET.peers['0']!;
  const peerOfB = b.NET.peers['0']!;
  expect(peerOfA.deviceId).toBe(b.SAFE.deviceId);
  expect(peerOfB.deviceId).toBe(a.SAFE.deviceId);
  expect(a.SAFE.careId).toEqual([b.SAFE.deviceId]);
  expect(b.SAFE.careId).toEqual([a.SAFE.deviceId]);
  expect(peerOfA[link]).not.toBeNull();
  if (link === 'ism0') {
    expect(peerOfA.ism0).toBe(b.NET.ism0!.radio_id);
    expect(peerOfB.ism0).toBe(a.NET.ism0!.radio_id);
  }
}
