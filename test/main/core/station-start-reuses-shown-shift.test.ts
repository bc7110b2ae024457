import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { CliCore } from '../../../main/core';
import { demoConfigurations } from '../../../server/seed/demo-configurations';
import { cliCoreFor } from '../../fixtures/cli-core';
import { useScratchDir } from '../../fixtures/scratch';
import { demoServicePerFile } from '../../fixtures/test-core';

/**
 * A shift starts from the table the operator just read: `station.start` after `station.parameters`
 * does not fetch every device's configuration file again (the 300-device soak found a Station's
 * start, and its start again after a crash, waiting for them twice). Without a table shown first,
 * the start fetches them itself. Against the demo service, through a client that counts the files.
 */

const LOADER = demoConfigurations()[0]!.seeded;

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('station-shown-shift');
const demo = demoServicePerFile({ configurations: true });
let core: CliCore | undefined;
let filesFetched = 0;

beforeAll(() => {
  vi.stubEnv('PROVISIONER_DISCOVERY', 'off');
  const real = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  const counting: ServiceClient = {
    ...real,
    devices: {
      ...real.devices,
      fetchConfigurationFile: (serialNumber, call) => {
        filesFetched += 1;
        return real.devices.fetchConfigurationFile(serialNumber, call);
      },
    },
  };
  core = cliCoreFor(join(scratch.dir, 'cli'), { serviceUrl: demo.service.url, orgId: 'demo', client: counting });
});
afterAll(async () => {
  await core?.close();
  vi.unstubAllEnvs();
});

async function startAndStop(checksum: string): Promise<void> {
  const started = await core!.invoke('station.start', {
    configurationName: LOADER.configuration.name,
    lanes: 1,
    firmware: 'keep',
    operator: 'Ola Operator',
    checksum,
  });
  expect(started.running).toBe(true);
  expect((await core!.invoke('station.stop', {})).running).toBe(false);
}

describe('a shift started from the table just shown', () => {
  it('fetches each device’s file once for the table and the start; a start with no table shown fetches them', async () => {
    const devices = LOADER.devices.length;
    expect(devices).toBeGreaterThan(1);
    const { checksumShort } = await core!.invoke('station.parameters', {
      configurationName: LOADER.configuration.name,
    });
    expect(filesFetched).toBe(devices);
    await startAndStop(checksumShort);
    expect(filesFetched).toBe(devices);

    // The table is taken once: the next start reads the files afresh, and still checks the checksum.
    await startAndStop(checksumShort);
    expect(filesFetched).toBe(2 * devices);
    await expect(
      core!.invoke('station.start', {
        configurationName: LOADER.configuration.name,
        operator: 'Ola Operator',
        checksum: '00000000',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('takes the shown table only for the configuration it shows', async () => {
    const other = demoConfigurations()[1]!.seeded;
    await core!.invoke('station.parameters', { configurationName: other.configuration.name });
    const before = filesFetched;
    const { checksumShort } = await core!.invoke('station.parameters', {
      configurationName: LOADER.configuration.name,
    });
    expect(filesFetched).toBe(before + LOADER.devices.length);
    // The other configuration's table was replaced by this one's: the start takes it.
    await startAndStop(checksumShort);
    expect(filesFetched).toBe(before + LOADER.devices.length);
    await core!.invoke('station.parameters', { configurationName: other.configuration.name });
    // A start for another configuration than the table shown reads its own files.
    const fetchedBeforeStart = filesFetched;
    await startAndStop(checksumShort);
    expect(filesFetched).toBe(fetchedBeforeStart + LOADER.devices.length);
  });
});
