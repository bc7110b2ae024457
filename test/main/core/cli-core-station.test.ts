import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StationEvent } from '../../../contract/station';
import { parseLedgerText, type LedgerEntry } from '../../../domain/ledger';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { CliCore } from '../../../main/core';
import { stationHandlers, type StationAccount } from '../../../main/core/handlers/station';
import type { JobsEngine } from '../../../main/engine/jobs';
import { LEDGER_FILE } from '../../../main/engine/ledger/ledger';
import { demoConfigurations } from '../../../server/seed/demo-configurations';
import { useScratchDir } from '../../fixtures/scratch';
import { demoServicePerFile } from '../../fixtures/test-core';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: `provisioner station` through the door (createCliCore's `station.*` channels and its
 * `station.event` stream), against the demo service with its configurations and no device plugged
 * in. A configuration the service does not hold and a checksum that is not the configuration's are
 * refused; a confirmed shift starts, writes the operator's confirmation (with the signed-in key as
 * its actor) to the ledger, streams its events and stops with its shift report where the command
 * line named it, the commissioning report said only in the stop's view, as the CLI prints it.
 */

const LOADER = demoConfigurations()[0]!.seeded;

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('cli-core-station');
const demo = demoServicePerFile({ configurations: true });
let client: ServiceClient;
let account: StationAccount;
let core: CliCore | undefined;
afterAll(async () => {
  await core?.close();
  vi.unstubAllEnvs();
});

beforeAll(async () => {
  // The station's device list looks for no IP device here (multicast discovery off).
  vi.stubEnv('PROVISIONER_DISCOVERY', 'off');
  client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  account = {
    client,
    serviceUrl: demo.service.url,
    orgId: 'demo',
    label: `organization demo at ${demo.service.url}`,
  };
  core = cliCoreFor(join(scratch.dir, 'cli'), account, {
    clientFor: () => client,
    // The login the run works for: its key's name is the shift confirmation's actor.
    savedLogin: async () => ({ serviceUrl: demo.service.url, orgId: 'demo', keyName: 'Line 3 key' }),
  });
}, 120_000);

/** Every entry of the CLI core's ledger. */
async function ledgerEntries(): Promise<LedgerEntry[]> {
  const dir = join(scratch.dir, 'cli');
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(LEDGER_FILE));
  const texts = await Promise.all(files.map((file) => readFile(join(dir, file), 'utf8')));
  return texts.flatMap((text) => parseLedgerText(text)).flatMap((line) => ('entry' in line ? [line.entry] : []));
}

describe("the CLI core's station channels", () => {
  it('refuses a configuration the service does not hold, naming those there are', async () => {
    await expect(core!.invoke('station.parameters', { configurationName: 'Loader 9' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining(`No configuration is named "Loader 9". There are: `),
    });
  });

  it('refuses a checksum that is not the configuration’s: nothing starts, nothing is written', async () => {
    const { checksumShort } = await core!.invoke('station.parameters', {
      configurationName: LOADER.configuration.name,
    });
    const wrong = checksumShort.endsWith('0') ? `${checksumShort.slice(0, 7)}1` : `${checksumShort.slice(0, 7)}0`;
    await expect(
      core!.invoke('station.start', {
        configurationName: LOADER.configuration.name,
        operator: 'Ola Operator',
        checksum: wrong,
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('not this configuration') });
    expect((await core!.invoke('station.view', {})).running).toBe(false);
    expect((await ledgerEntries()).filter((e) => e.action === 'station-shift')).toEqual([]);
  });

  it('refuses lanes beyond what a station runs', async () => {
    await expect(
      core!.invoke('station.start', {
        configurationName: LOADER.configuration.name,
        lanes: 17,
        operator: 'Ola Operator',
        checksum: '00000000',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it(
    'runs a confirmed shift: its events streamed, the confirmation in the ledger, the report where named',
    { timeout: 300_000 },
    async () => {
      const { checksumShort } = await core!.invoke('station.parameters', {
        configurationName: LOADER.configuration.name,
      });
      const events: StationEvent[] = [];
      const off = core!.subscribe('station.event', (event) => events.push(event));
      const reportPath = join(scratch.dir, 'shift-report.csv');
      const started = await core!.invoke('station.start', {
        configurationName: LOADER.configuration.name,
        lanes: 2,
        firmware: 'keep',
        operator: 'Ola Operator',
        checksum: ` ${checksumShort.toLowerCase()} `,
        reportPath,
      });
      expect(started).toMatchObject({ running: true, lanes: 2, firmware: 'keep' });
      expect(started.shift).toMatchObject({ operator: 'Ola Operator', checksumShort });
      expect(events[0]).toMatchObject({
        event: 'station-started',
        configurationName: LOADER.configuration.name,
        shift: { operator: 'Ola Operator', checksumShort },
      });
      // One station per core.
      await expect(
        core!.invoke('station.start', {
          configurationName: LOADER.configuration.name,
          operator: 'Ola Operator',
          checksum: checksumShort,
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });

      const stopped = await core!.invoke('station.stop', {});
      off();
      expect(stopped.running).toBe(false);
      expect(stopped.report?.path).toBe(reportPath);
      expect(await readFile(reportPath, 'utf8')).toMatch(/serialNumber/);
      // The commissioning report is the stop's to say (made, or why not), not the stopped event's.
      expect(stopped.report?.commissioning).not.toBeNull();
      const last = events.at(-1);
      expect(last?.event).toBe('station-stopped');
      expect(last?.event === 'station-stopped' ? last.report : undefined).toEqual({
        path: reportPath,
        rows: 0,
        commissioning: null,
      });

      const shifts = (await ledgerEntries()).filter((e) => e.action === 'station-shift');
      expect(shifts).toHaveLength(1);
      expect(shifts[0]!.actor).toBe('Line 3 key');
      expect(shifts[0]!.facts).toMatchObject({
        operator: 'Ola Operator',
        checksumShort,
        configurationName: LOADER.configuration.name,
      });
    },
  );
});

describe('the station handler in the app', () => {
  it('refuses a shift report path: only a command-line run names its file', async () => {
    const { handlers } = stationHandlers({
      account: async () => account,
      openDevices: async () => {
        throw new Error('not opened: the start is refused first');
      },
      jobs: {} as JobsEngine,
      dataDir: scratch.dir,
      emit: () => undefined,
      warn: () => undefined,
    });
    await expect(
      handlers['station.start']({
        configurationName: LOADER.configuration.name,
        lanes: 1,
        firmware: 'keep',
        operator: 'Ola Operator',
        checksum: '00000000',
        reportPath: join(scratch.dir, 'elsewhere.csv'),
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('--report') });
  });
});
