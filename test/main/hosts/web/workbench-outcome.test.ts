import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import type { Page } from 'playwright-core';
import { registerWorkbenchDevices } from '../../../../main/hosts/web/simulated-workbench';
import { goTo, NO_LIMIT } from './helpers/web-mode-page';
import { startWorkbenchPage, type WorkbenchPage } from './helpers/workbench-page';

/**
 * Issue 18 in a real browser: a simulated EPC000101 that is registered but in no configuration.
 * "Both" and "Apply configuration" are offered disabled with the reason and a way to add it; a
 * "both" job started anyway (from another window, or before its needs were known) ends with the
 * firmware installed and the configuration not applied, the reason in full and no route in it,
 * never "Failed"; the row's timeline shows the steps. Screenshots go to test/e2e/screenshots/.
 */

const SERIAL = 'EPC000101';
const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE)\s|configurations\/|\/devices|\{id\}/;

let world: WorkbenchPage;
let core: Core;
let page: Page;

async function shot(name: string): Promise<void> {
  await world.shot(name);
}

beforeAll(async () => {
  // Registered, in no configuration: the demo configurations hold other devices.
  world = await startWorkbenchPage({
    name: 'outcome',
    types: ['EPC'],
    prepare: (client) => registerWorkbenchDevices(client, [SERIAL]).then(() => undefined),
  });
  ({ core, page } = world);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe('Workbench outcomes a technician reads at a glance', () => {
  it('offers "Both" and "Apply configuration" disabled for a device in no configuration, saying why', async () => {
    await goTo(page, 'Workbench');
    const row = page.locator(`tr[data-serial="${SERIAL}"]`);
    await row.getByText('Firmware 1.1.0').waitFor(NO_LIMIT);
    await row.getByText(`${SERIAL} is in no configuration: add it in Configurations`).waitFor(NO_LIMIT);
    await page.getByLabel(`Select ${SERIAL}`).check();
    const reason = `${SERIAL} is in no configuration: add it in Configurations`;
    for (const name of ['Both', 'Apply configuration']) {
      const button = page.getByRole('button', { name, exact: true });
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.getAttribute('title')).toBe(reason);
    }
    expect(await page.getByRole('button', { name: 'Update firmware', exact: true }).getAttribute('aria-disabled')).toBe(
      'false',
    );
    expect(await page.getByTestId('workbench-blocked').innerText()).toContain(reason);
    await shot('18-01-both-disabled');
  });

  it('ends a "both" job with the firmware installed and the configuration not applied, in full, with no route; the timeline shows the steps', async () => {
    // Started as another window (or a script) would, past the disabled button: the job itself must say it right.
    const [device] = await core.invoke('workbench.devices', {});
    await core.invoke('workbench.start', { action: 'both', linkIds: [device!.linkId] });
    const row = page.locator(`tr[data-serial="${SERIAL}"]`);
    const outcome = row.locator('.step-outcome');
    await outcome.waitFor(NO_LIMIT);
    expect(await outcome.getAttribute('data-tone')).toBe('attention');
    const firmware = outcome.locator('[data-step="firmware"]');
    const configuration = outcome.locator('[data-step="configuration"]');
    expect(await firmware.getAttribute('data-status')).toBe('done');
    expect(await firmware.innerText()).toMatch(/^✓ firmware 1\.1\.0 installed \(was 1\.0\.0\)/);
    expect(await configuration.getAttribute('data-status')).toBe('skipped');
    const text = await configuration.innerText();
    expect(text).toContain(`configuration not applied: ${SERIAL} is in no configuration: add it in Configurations`);
    // What to do from the catalogue, then the code for support.
    expect(text).toContain(
      'Add the device in Configurations, then apply the configuration. (DEVICE_NOT_IN_CONFIGURATION)',
    );
    const label = (await outcome.getAttribute('aria-label')) ?? '';
    expect(label).toContain('firmware 1.1.0 installed');
    expect(label).toContain(`configuration not applied: ${SERIAL} is in no configuration: add it in Configurations`);
    for (const shown of [text, label, await row.innerText()]) {
      expect(shown).not.toMatch(ROUTE);
      expect(shown).not.toContain('Failed');
    }
    // Nothing is cut off: the whole reason is on screen, not hidden by overflow.
    const box = await configuration.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
    await shot('18-02-row-outcome');
    // No configuration was applied: no function test is asked for "now that the configuration is applied".
    expect(await page.getByRole('heading', { name: `Function test of ${SERIAL}` }).count()).toBe(0);

    await row.getByRole('button', { name: `Timeline of ${SERIAL}` }).click();
    const timeline = page.getByRole('region', { name: `Timeline of ${SERIAL}` });
    await timeline.waitFor(NO_LIMIT);
    const steps = timeline.locator('li').first().locator('tbody tr');
    expect(
      await steps.evaluateAll((rows) =>
        rows.map((r) => `${r.getAttribute('data-step')}:${r.getAttribute('data-status')}`),
      ),
    ).toEqual([
      'firmware:done',
      'read-back:done',
      'confirmation:done',
      'configuration:skipped',
      'read-back:not-started',
      'parameter-verification:not-started',
      'confirmation:not-started',
    ]);
    const firmwareRow = steps.nth(0);
    // Bytes sent and a duration are shown for the upload.
    expect(await firmwareRow.locator('td').nth(4).innerText()).toMatch(/\d+(\.\d)? (B|kB|MB)/);
    expect(await firmwareRow.locator('td').nth(3).innerText()).toMatch(/\d+ s|min/);
    expect(await timeline.innerText()).toContain('Firmware: the service has its confirmation.');
    expect(await timeline.innerText()).not.toMatch(ROUTE);
    await shot('18-03-timeline');
  });

  it('"Add it" opens Configurations to add the device', async () => {
    await page
      .locator(`tr[data-serial="${SERIAL}"]`)
      .getByRole('button', { name: `Add ${SERIAL} in Configurations` })
      .click();
    await page
      .getByText(`Open the configuration ${SERIAL} goes into: its add form opens with ${SERIAL} filled in.`)
      .waitFor(NO_LIMIT);
    await shot('18-04-add-in-configurations');
  });
});
