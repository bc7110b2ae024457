import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeConfigFile, encodeConfigFile } from '../../../domain/files/config-file';
import { generateSigningKeyPair } from '../../../domain/files/config-file-signature';
import { readFirmwareBundle } from '../../../domain/files/firmware-bundle';
import { generateReleaseKeyPair } from '../../../domain/files/firmware-release-key';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { CliCore } from '../../../main/core';
import { organizationSigner } from '../../fixtures/config-files';
import { signedTestBundle } from '../../fixtures/release-key';
import { demoServicePerFile } from '../../fixtures/test-core';
import { demoConfigurations } from '../../../server/seed/demo-configurations';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: the CLI's `device firmware download` and `device configuration download` through the
 * door (createCliCore's `downloads.firmware` and `downloads.configurationFile`), against the demo service on 127.0.0.1. A file the checks refuse
 * (a bundle signed by a release key made a moment ago, a configuration file under a root key made a
 * moment ago) is answered as a refusal and nothing is kept; a genuine one is kept and answered whole.
 */

const demo = demoServicePerFile({ configurations: true });
/** A device of the demo's first configuration: it has a configuration file. */
const CONFIGURED = demoConfigurations()[0]!.seeded.devices[0]!.payload.serialNumber;

let dataDir = '';
let core: CliCore | undefined;

/** A core for the demo organization through `client` (the service's own, or one whose downloads are tampered with). */
async function coreWith(tamper: (client: ServiceClient) => ServiceClient = (client) => client): Promise<CliCore> {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-core-downloads-'));
  const serviceUrl = demo.service.url;
  const client = tamper(createServiceClient({ baseUrl: serviceUrl, orgId: 'demo', apiKey: demo.adminKey }));
  core = cliCoreFor(dataDir, { serviceUrl, orgId: 'demo', client });
  return core;
}

afterEach(async () => {
  await core?.close();
  core = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

describe("the CLI core's download channels", () => {
  it('downloads.firmware answers the checked bundle whole, signer named, and keeps it in the cache', async () => {
    const cli = await coreWith();
    const answer = await cli.invoke('downloads.firmware', { deviceType: 'EPC' });
    if (answer.outcome !== 'checked') throw new Error(`refused: ${answer.message}`);
    expect(readFirmwareBundle(answer.bytes)).toMatchObject({ deviceType: 'EPC', version: answer.version });
    expect(answer).toMatchObject({ deviceType: 'EPC', size: answer.bytes.length });
    expect(answer.signedBy.keyId).not.toBe('');
    const { firmware } = await cli.invoke('cache.contents', {});
    expect(firmware.map((entry) => [entry.deviceType, entry.version, entry.sha256])).toEqual([
      ['EPC', answer.version, answer.sha256],
    ]);
    expect(firmware[0]!.origins).toEqual([{ serviceUrl: demo.service.url, orgId: 'demo' }]);
  });

  it('downloads.firmware refuses a bundle signed by a release key made a moment ago, and keeps nothing', async () => {
    const forged = signedTestBundle('EPC', '9.9.9', 2048, { key: generateReleaseKeyPair() });
    const cli = await coreWith((client) => ({
      ...client,
      devices: {
        ...client.devices,
        fetchFirmwareByType: async () => ({ bytes: forged, syncId: undefined, headers: new Headers() }),
      },
    }));
    const answer = await cli.invoke('downloads.firmware', { deviceType: 'EPC' });
    expect(answer).toMatchObject({ outcome: 'refused', code: 'FW_UNTRUSTED_KEY' });
    expect((await cli.invoke('cache.contents', {})).firmware).toEqual([]);
  });

  it('downloads.firmware refuses input that names neither a serial number nor a known type', async () => {
    const cli = await coreWith();
    await expect(cli.invoke('downloads.firmware', { deviceType: 'TOASTER' as never })).rejects.toThrow(/deviceType/);
    await expect(cli.invoke('downloads.firmware', {})).rejects.toThrow(/either serialNumber .* or deviceType/);
    await expect(cli.invoke('downloads.firmware', { serialNumber: 'EPC000101', deviceType: 'EPC' })).rejects.toThrow(
      /either serialNumber .* or deviceType/,
    );
  });

  it('downloads.configurationFile answers the checked file with its syncId and keeps it for offline use', async () => {
    const cli = await coreWith();
    const answer = await cli.invoke('downloads.configurationFile', { serialNumber: CONFIGURED });
    if (answer.outcome !== 'checked') throw new Error(`not checked: ${JSON.stringify(answer)}`);
    const decoded = decodeConfigFile(answer.bytes);
    expect(answer).toMatchObject({ serialNumber: CONFIGURED, blank: false, size: answer.bytes.length });
    expect(answer.syncId).toBe(decoded.syncId);
    const { configurationFiles } = await cli.invoke('cache.contents', {});
    expect(configurationFiles.map((file) => [file.serialNumber, file.syncId, file.size])).toEqual([
      [CONFIGURED, decoded.syncId, answer.bytes.length],
    ]);
  });

  it('downloads.configurationFile refuses a file signed under a root key made a moment ago, and keeps nothing', async () => {
    const cli = await coreWith((client) => ({
      ...client,
      devices: {
        ...client.devices,
        fetchConfigurationFile: async (serialNumber: string) => {
          const genuine = decodeConfigFile((await client.devices.fetchConfigurationFile(serialNumber)).bytes);
          const bytes = encodeConfigFile(genuine.content, organizationSigner(generateSigningKeyPair(), 'demo'));
          return { bytes, syncId: genuine.syncId, headers: new Headers() };
        },
      },
    }));
    const answer = await cli.invoke('downloads.configurationFile', { serialNumber: CONFIGURED });
    expect(answer).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/root key/) });
    expect((await cli.invoke('cache.contents', {})).configurationFiles).toEqual([]);
  });
});
