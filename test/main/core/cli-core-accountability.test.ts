import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CoreError, FunctionTestRefusedError, type CommissioningReportFileView } from '../../../contract/index';
import { createTranslator } from '../../../domain/i18n/index.js';
import type { CommissioningState, CommissioningStep } from '../../../domain/ledger-commissioning';
import { createServiceClient, type ServiceClient } from '../../../main/cloud';
import type { CliCore } from '../../../main/core';
import { openWorkstationLedger } from '../../../main/engine/ledger';
import { commissioningStatusText } from '../../../main/features/report/report-words';
import { demoConfigurations } from '../../../server/seed/demo-configurations';
import { useScratchDir } from '../../fixtures/scratch';
import { demoServicePerFile } from '../../fixtures/test-core';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: `report` and `device function-test` through the door (createCliCore's
 * `reports.commissioning` and `functionTest.*` channels), against the demo service with its
 * configurations and no device plugged in. The report is found by the configuration's name and
 * says each device's state in the language asked for; a name the service does not hold is refused
 * as the command line's mistake; a test of a device that cannot be watched is refused with why as
 * a code; the devices waiting for their test are those whose last ledger entry is an apply.
 */

const LOADER = demoConfigurations()[0]!.seeded;

// Registered in this order, so the core closes first, then the service, and the scratch directory goes last.
const scratch = useScratchDir('cli-core-accountability');
const demo = demoServicePerFile({ configurations: true });
let client: ServiceClient;
let core: CliCore | undefined;
let label = '';
afterAll(async () => {
  await core?.close();
  vi.unstubAllEnvs();
});

beforeAll(async () => {
  // No IP device is looked for here (multicast discovery off); no port is listed.
  vi.stubEnv('PROVISIONER_DISCOVERY', 'off');
  client = createServiceClient({ baseUrl: demo.service.url, orgId: 'demo', apiKey: demo.adminKey });
  label = `organization demo at ${demo.service.url} (as the CLI says it)`;
  const account = { client, serviceUrl: demo.service.url, orgId: 'demo', label };
  const dataDir = join(scratch.dir, 'cli');
  // This workstation's ledger (devices of no demo configuration): an apply is the last word on EPC000901, a test came after EPC000902's.
  const ledger = openWorkstationLedger(dataDir);
  const entry = (serialNumber: string, action: 'configuration-apply' | 'function-test') =>
    ledger.append({
      at: new Date().toISOString(),
      action,
      outcome: 'success',
      serialNumber,
      workstation: 'ws-1',
      facts: {},
    });
  await entry('EPC000901', 'configuration-apply');
  await entry('EPC000902', 'configuration-apply');
  await entry('EPC000902', 'function-test');
  core = cliCoreFor(dataDir, account, { clientFor: () => client });
}, 120_000);

/** What a channel refused with, or undefined when it answered. */
async function refusal(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("the CLI core's report and function test channels", () => {
  it('reports.commissioning finds the configuration by its name and says each device in the language asked for', async () => {
    const file: CommissioningReportFileView = await core!.invoke('reports.commissioning', {
      configurationName: LOADER.configuration.name,
      format: 'json',
      language: 'de',
    });
    const report = JSON.parse(Buffer.from(file.contentBase64, 'base64').toString('utf8')) as {
      configuration: { name: string };
      service: string;
      devices: { serialNumber: string; commissioning: CommissioningState; missingSteps: CommissioningStep[] }[];
    };
    expect(report.configuration.name).toBe(LOADER.configuration.name);
    expect(report.service).toBe(label);
    const serials = LOADER.devices.map((d) => d.payload.serialNumber);
    expect(report.devices.map((d) => d.serialNumber).sort()).toEqual([...serials].sort());
    expect(file).toMatchObject({
      configurationName: LOADER.configuration.name,
      deviceCount: serials.length,
      commissionedCount: 0,
      ledgerIntact: true,
      ledgerBroken: null,
      mediaType: 'application/json',
    });
    // Nothing was applied here: no device is commissioned, and each says its state in German.
    const de = createTranslator('de');
    expect(file.notCommissioned?.map((d) => d.serialNumber).sort()).toEqual([...serials].sort());
    for (const device of report.devices) {
      const said = file.notCommissioned?.find((d) => d.serialNumber === device.serialNumber)?.status;
      expect(said, device.serialNumber).toBe(commissioningStatusText(device.commissioning, device.missingSteps, de));
      expect(said, device.serialNumber).not.toBe(commissioningStatusText(device.commissioning, device.missingSteps));
    }
  });

  it('reports.commissioning refuses a name the service does not hold, and a request that names the configuration twice or not at all', async () => {
    const unknown = await refusal(core!.invoke('reports.commissioning', { configurationName: 'Loader 99' }));
    expect(unknown).toBeInstanceOf(CoreError);
    expect(unknown).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"Loader 99"') });
    for (const input of [{}, { configurationName: LOADER.configuration.name, configurationId: 'c-1' }]) {
      const wrong = await refusal(core!.invoke('reports.commissioning', input));
      expect(wrong, JSON.stringify(input)).toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('configurationName'),
      });
    }
  });

  it('functionTest.observe refuses a device it cannot watch, with why as a code', async () => {
    await client.devices.register({ serialNumber: 'EPC000103', name: 'EPC000103' });
    const inLoader = LOADER.devices[0]!.payload.serialNumber;
    for (const [serialNumber, why] of [
      ['EPC999999', 'notRegistered'],
      ['EPC000103', 'noConfiguration'],
      [inLoader, 'notAttached'],
    ] as const) {
      const refused = await refusal(core!.invoke('functionTest.observe', { serialNumber }));
      expect(refused, serialNumber).toBeInstanceOf(FunctionTestRefusedError);
      expect(refused, serialNumber).toMatchObject({ refusal: why, serialNumber });
    }
  });

  it('functionTest.record refuses an observation it does not hold', async () => {
    const refused = await refusal(core!.invoke('functionTest.record', { observationId: 'no-such-test' }));
    expect(refused).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('no longer open') });
  });

  it('functionTest.due names the devices whose last ledger entry is an apply', async () => {
    expect(await core!.invoke('functionTest.due', { serialNumbers: ['EPC000901', 'EPC000902', 'EPC000903'] })).toEqual({
      serialNumbers: ['EPC000901'],
    });
  });
});
