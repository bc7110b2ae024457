import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import {
  registerWorkbenchDevices,
  simulationPortOf,
  startSimulatedWorkbench,
  type SimulatedWorkbench,
} from '../../../../main/hosts/web/simulated-workbench';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import {
  deviceKeys,
  goTo,
  NO_LIMIT,
  seriousViolations,
  startWebModePage,
  type WebModePage,
} from './helpers/web-mode-page';
import { lookUntil } from './helpers/looks';
import { WORKBENCH_DEVICES } from './helpers/workbench-page';

/**
 * Issue 32, a bench that can reach "commissioned", in a real browser on web mode's simulated bench
 * (the core given the bench as --simulate gives it, simulationPortOf): the bench starts with one
 * EPC; the second is added from the Workbench's form. A new configuration of the two EPCs (made
 * through the service client: the designer's part is covered by the designer's own browser tests),
 * firmware and configuration on both ("Both"), the parameters of each confirmed with the keyboard,
 * the function test that opens by itself pressed from the device's row ("Press E-stop", through
 * the simulator's control socket), and the commissioning report saying 2 of 2 commissioned.
 * axe-core clean along the way; screenshots go to test/e2e/screenshots/.
 */

const FIRST = 'EPC000101';
const SECOND = 'EPC000102';
const CONFIGURATION = 'Bench line 32';

let world: WebModePage;
let page: Page;
let client: ServiceClient;
// Started in prepare, once the workspace's keys are known; the core asks for it through the port.
let bench: SimulatedWorkbench | null = null;

beforeAll(async () => {
  world = await startWebModePage({
    name: 'commissioning-bench',
    devices: WORKBENCH_DEVICES,
    fullPageShots: true,
    acceptDownloads: true,
    simulation: simulationPortOf(() => bench),
    prepare: async (setup) => {
      const { workspace } = setup;
      bench = await startSimulatedWorkbench({
        dir: join(setup.dir, 'workbench'),
        ...(await deviceKeys(workspace.serviceUrl)),
        devices: [{ deviceType: 'EPC', serialNumber: FIRST }],
      });
      setup.stopOnClose(() => bench!.stop());
      client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
      await registerWorkbenchDevices(client, [FIRST]);
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ page } = world);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

async function expectAccessible(): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Confirms the parameters read back from a device, keyboard only: name (the first time), Tab, the running checksum, Enter. */
async function confirmParameters(serial: string): Promise<void> {
  const section = page.getByRole('region', { name: `Parameters on ${serial}: match the configuration` });
  await section.waitFor(NO_LIMIT);
  const running = (await section.getByTestId('checksum-running').innerText()).trim();
  // The first confirmation names the person; the next ones say "Confirming as Dana Weber" and ask the checksum only.
  if ((await section.getByLabel('Your name').count()) > 0) {
    await section.getByLabel('Your name').focus();
    await page.keyboard.type('Dana Weber');
    await page.keyboard.press('Tab');
  } else {
    await section.getByText('Confirming as Dana Weber.').waitFor(NO_LIMIT);
    await section.getByLabel(/Running checksum/).focus();
  }
  await page.keyboard.type(running);
  await page.keyboard.press('Enter');
  await section.getByTestId('parameters-confirmed').waitFor(NO_LIMIT);
}

/** The function test that opened by itself: watch, press the E-stop from the device's row, judge, record. */
async function functionTestFromTheRow(serial: string, receiver: string, shotName: string): Promise<void> {
  const test = page.getByRole('dialog', { name: `Function test of ${serial}` });
  await test.waitFor(NO_LIMIT);
  await test.getByRole('button', { name: 'Start watching' }).click();
  await test.getByText('press the E-stop now.').waitFor(NO_LIMIT);
  await test.getByRole('button', { name: 'Stop' }).waitFor(NO_LIMIT);
  await expectAccessible();
  // While watched, the devices stay listed, each with its Press E-stop.
  await page
    .locator(`tr[data-serial="${receiver}"]`)
    .getByRole('button', { name: `Press E-stop on ${receiver} (simulated)` })
    .waitFor(NO_LIMIT);
  await world.shot(`${shotName}-watching`);

  await page
    .locator(`tr[data-serial="${serial}"]`)
    .getByRole('button', { name: `Press E-stop on ${serial} (simulated)` })
    .click();
  await test.getByText(new RegExp(`^Press seen\\. ${receiver} tripped after \\d+ ms\\.$`)).waitFor(NO_LIMIT);
  await test.getByLabel('Yes, it stopped safely').check();
  await test.getByLabel('Note').fill('conveyor stopped, lamp off');
  await test.getByRole('button', { name: 'Record result' }).click();
  const result = test.getByTestId('function-test-result');
  await result.waitFor(NO_LIMIT);
  expect(await result.innerText()).toMatch(
    new RegExp(
      `^PASSED: ${receiver} tripped after \\d+ ms\\. ${serial} is commissioned \\(parameters verified, function test passed\\)\\.$`,
    ),
  );
  await world.shot(shotName);
  await test.getByRole('button', { name: 'Close' }).click();
}

describe('a simulated bench that reaches "commissioned"', () => {
  it(
    'adds a second EPC from the Workbench, refusing a serial number of another type first',
    { timeout: 240_000 },
    async () => {
      await goTo(page, 'Workbench');
      await page.locator(`tr[data-serial="${FIRST}"]`).waitFor(NO_LIMIT);
      expect(
        await page
          .locator(`tr[data-serial="${FIRST}"]`)
          .getByRole('button', { name: `Press E-stop on ${FIRST} (simulated)` })
          .count(),
      ).toBe(1);
      await page.getByText('Add a simulated device').click();
      const form = page.getByRole('form', { name: 'Add a simulated device' });
      await form.getByLabel('Device type').selectOption('EPC');
      await form.getByLabel('Serial number').fill('SRCP000105');
      await form.getByRole('alert').getByText('SRCP000105 starts with SRCP, not EPC').waitFor(NO_LIMIT);
      await form.getByLabel('Serial number').fill(SECOND);
      await form.getByLabel('Serial number').press('Enter');
      await page.getByText(`${SECOND} is plugged in on the bench and registered in the organization`).waitFor(NO_LIMIT);
      await page.locator(`tr[data-serial="${SECOND}"]`).waitFor(NO_LIMIT);
      await expectAccessible();
      await world.shot('32-01-bench-device-added');
      expect(bench!.serialNumbers).toEqual([FIRST, SECOND]);
    },
  );

  it(
    'installs firmware and configuration on both, confirms the parameters, runs each function test from its row and reports 2 of 2 commissioned',
    { timeout: 480_000 },
    async () => {
      // A new configuration of the two EPCs, made now that both are registered.
      await buildFlow(client, {
        ...epcToEpcOverEthernet,
        configuration: { ...epcToEpcOverEthernet.configuration, name: CONFIGURATION },
      });
      await page.getByRole('button', { name: 'Rescan' }).click();
      // Both rows identified and selectable (a rescan redraws them): select all until both are selected.
      await lookUntil(
        'both devices selected',
        async () => {
          for (const serial of [FIRST, SECOND]) await page.locator(`tr[data-serial="${serial}"]`).waitFor(NO_LIMIT);
          const all = page.getByLabel('Select all devices');
          if (!(await all.isChecked())) await all.click();
          return (await page.locator('.toolbar__count').innerText()).trim();
        },
        (count) => count === '2 selected',
        { looks: 120, pauseMs: 250 },
      );
      const both = page.getByRole('button', { name: 'Both', exact: true });
      // On once the Workbench knows both devices are in a configuration.
      await page.waitForFunction(
        `document.querySelector('[name="workbench-both"]')?.getAttribute('aria-disabled') === 'false'`,
        undefined,
        NO_LIMIT,
      );
      await both.click();

      await confirmParameters(FIRST);
      await expectAccessible();
      await world.shot('32-02-parameters-confirmed');
      await functionTestFromTheRow(FIRST, SECOND, '32-03-function-test-passed');
      await confirmParameters(SECOND);
      await functionTestFromTheRow(SECOND, FIRST, '32-04-second-function-test-passed');

      await goTo(page, 'Configurations');
      const report = page.getByRole('button', { name: `Report of ${CONFIGURATION}` });
      await report.waitFor(NO_LIMIT);
      const download = page.waitForEvent('download', NO_LIMIT);
      await report.click();
      const saved = await download;
      await page
        .getByText(
          `Commissioning report of “${CONFIGURATION}” saved as ${saved.suggestedFilename()}: 2 of 2 devices commissioned.`,
        )
        .waitFor(NO_LIMIT);
      await expectAccessible();
      await world.shot('32-05-two-of-two-commissioned');
      expect(world.pageErrors).toEqual([]);
    },
  );
});
