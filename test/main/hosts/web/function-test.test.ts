import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import { startSimulatedDevice, type SimulatedDevice } from '../../../../simulator';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { deviceKeys, goTo, NO_LIMIT, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * Issue 15 in a real browser (web mode, Debian's chromium): after "Apply configuration" on the
 * Workbench and the technician's confirmation of the parameters read back (issue 26), the function
 * test opens by itself; the simulated technician presses the E-stop, the
 * panel shows the receiver's observed reaction, the verdict and note are recorded and the device is
 * commissioned. With the receiver gone the test fails, is shown as failed and kept. The
 * Configurations screen saves the commissioning report as a PDF that pdftotext reads back.
 */

const run = promisify(execFile);
const PTY_DIR = join('sim', 'pty');

let world: WebModePage;
let dir: string;
let core: Core;
let page: Page;
let client: ServiceClient;
let configurationName: string;
const devices: SimulatedDevice[] = [];

async function shot(name: string): Promise<void> {
  await world.shot(name);
}

beforeAll(async () => {
  world = await startWebModePage({
    name: 'function-test',
    devices: { ptyDir: PTY_DIR, pollIntervalMs: 500 },
    fullPageShots: true,
    acceptDownloads: true,
    prepare: async (setup) => {
      const { workspace } = setup;
      setup.stopOnClose(async () => {
        await Promise.allSettled(devices.map((d) => d.stop()));
      });
      client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
      const keys = await deviceKeys(workspace.serviceUrl);
      for (const [serialNumber, pressEstopAfterMs] of [
        ['EPC000101', 300],
        ['EPC000102', undefined],
      ] as const) {
        devices.push(
          await startSimulatedDevice({
            deviceType: 'EPC',
            serialNumber,
            firmwareVersion: '1.1.0',
            link: 'pty',
            ptyDir: join(setup.dir, PTY_DIR),
            stateDir: join(setup.dir, 'sim', 'devices', serialNumber),
            ...keys,
            baudRate: 921600,
            rebootMs: 150,
            applyMs: 50,
            ...(pressEstopAfterMs ? { pressEstopAfterMs } : {}),
          }),
        );
      }
      // A name of its own: the workspace's demo has a configuration of this flow's name too.
      const configurationId = await buildFlow(client, {
        ...epcToEpcOverEthernet,
        configuration: { ...epcToEpcOverEthernet.configuration, name: 'Line 15 E-stop' },
      });
      configurationName = (await client.configurations.get(configurationId)).name;
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ dir, core, page } = world);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

describe('the function test on the Workbench', () => {
  it('opens after an apply, shows the observed reaction and records a pass', { timeout: 240_000 }, async () => {
    // The receiver's configuration first, as another technician would have done.
    await goTo(page, 'Workbench');
    await page.locator('tr[data-serial="EPC000102"]').waitFor(NO_LIMIT);
    await page.locator('tr[data-serial="EPC000101"]').waitFor(NO_LIMIT);
    const attached = await core.invoke('workbench.devices', {});
    const receiverLink = attached.find((d) => d.serialNumber === 'EPC000102')!.linkId;
    const [receiverJob] = await core.invoke('workbench.start', { action: 'configuration', linkIds: [receiverLink] });
    await page.locator('tr[data-serial="EPC000102"] .step-outcome').waitFor(NO_LIMIT);
    expect(receiverJob).toBeDefined();
    // Its parameters wait for a person: no function test is offered before they are confirmed (issue 26).
    await page.getByRole('region', { name: 'Parameters on EPC000102: match the configuration' }).waitFor(NO_LIMIT);
    const panel = page.getByRole('dialog', { name: /Function test of/ });
    expect(await panel.count()).toBe(0);

    await page.getByLabel('Select EPC000101').check();
    await page.getByRole('button', { name: 'Apply configuration', exact: true }).click();
    const parameters = page.getByRole('region', { name: 'Parameters on EPC000101: match the configuration' });
    await parameters.waitFor(NO_LIMIT);
    const running = (await parameters.getByTestId('checksum-running').innerText()).trim();
    await parameters.getByLabel('Your name').fill('Dana Weber');
    await parameters.getByLabel(/Running checksum/).fill(running);
    await parameters.getByLabel(/Running checksum/).press('Enter');
    // Confirmed: the next step, the function test, opens by itself.
    const test = page.getByRole('dialog', { name: 'Function test of EPC000101' });
    await test.waitFor(NO_LIMIT);
    await shot('15-01-function-test-offered');
    await test.getByRole('button', { name: 'Start watching' }).click();
    const seen = test.getByText(/^Press seen\. EPC000102 tripped after \d+ ms\.$/);
    await seen.waitFor(NO_LIMIT);
    await test.getByLabel('Yes, it stopped safely').check();
    await test.getByLabel('Note').fill('conveyor stopped, lamp off');
    await shot('15-02-function-test-observed');
    await test.getByRole('button', { name: 'Record result' }).click();
    const result = test.getByTestId('function-test-result');
    await result.waitFor(NO_LIMIT);
    expect(await result.innerText()).toMatch(
      /^PASSED: EPC000102 tripped after \d+ ms\. EPC000101 is commissioned \(parameters verified, function test passed\)\.$/,
    );
    await shot('15-03-function-test-passed');
    await test.getByRole('button', { name: 'Close' }).click();
  });

  it('fails the test when a receiver is gone, shows it failed and keeps it', { timeout: 240_000 }, async () => {
    await devices[1]!.stop();
    await page.locator('tr[data-serial="EPC000102"]').waitFor({ state: 'detached', timeout: 0 });
    await page.getByRole('button', { name: 'Function test…' }).click();
    await page
      .getByRole('group', { name: 'Choose the device to test' })
      .getByRole('button', { name: 'EPC000101' })
      .click();
    const test = page.getByRole('dialog', { name: 'Function test of EPC000101' });
    await test.getByRole('button', { name: 'Start watching' }).click();
    await test
      .getByText('This test fails: EPC000102 could not be watched (not attached to this computer).')
      .waitFor(NO_LIMIT);
    expect(await test.getByLabel('Yes, it stopped safely').isDisabled()).toBe(true);
    expect(await test.getByRole('button', { name: 'Record result' }).getAttribute('aria-disabled')).toBe('true');
    await test.getByLabel('No', { exact: true }).check();
    await test.getByLabel('Note').fill('receiver cabinet unpowered');
    await test.getByRole('button', { name: 'Record result' }).click();
    const result = test.getByTestId('function-test-result');
    await result.waitFor(NO_LIMIT);
    expect(await result.innerText()).toContain('EPC000101 is NOT commissioned: the function test failed.');
    expect(await result.innerText()).toMatch(/^FAILED/);
    await shot('15-04-function-test-failed');
  });

  it('saves the commissioning report from the Configurations screen', { timeout: 240_000 }, async () => {
    await goTo(page, 'Configurations');
    const button = page.getByRole('button', { name: `Report of ${configurationName}` });
    await button.waitFor(NO_LIMIT);
    const download = page.waitForEvent('download', NO_LIMIT);
    await button.click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/-commissioning-\d{4}-\d{2}-\d{2}\.pdf$/);
    const path = join(dir, saved.suggestedFilename());
    await saved.saveAs(path);
    const { stdout: text } = await run('pdftotext', ['-layout', path, '-']);
    const syncIds: string[] = [];
    for (const serial of ['EPC000101', 'EPC000102']) {
      expect(text).toContain(serial);
      const syncId = (await client.devices.list({ serial })).items[0]?.deployedSyncId;
      expect(syncId).toMatch(/^[0-9a-f-]{36}$/);
      syncIds.push(syncId!);
    }
    for (const syncId of syncIds) expect(text).toContain(syncId);
    expect(text).toContain('Function test: FAILED');
    await page
      .getByText(
        `Commissioning report of “${configurationName}” saved as ${saved.suggestedFilename()}: 0 of 2 devices commissioned.`,
      )
      .waitFor(NO_LIMIT);
    await shot('15-05-commissioning-report-saved');
    // Uncaught exceptions only: the console is not watched here.
    expect(world.pageErrors).toEqual([]);
  });
});
