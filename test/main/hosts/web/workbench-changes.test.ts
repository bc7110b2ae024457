import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import type { ServiceClient } from '../../../../main/cloud';
import type { Page } from 'playwright-core';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { goTo, NO_LIMIT } from './helpers/web-mode-page';
import { startWorkbenchPage, type WorkbenchPage } from './helpers/workbench-page';

/**
 * Issue 16's change view in a real browser: before an apply, a Workbench row says what the
 * device's next file changes against the one it was last confirmed with, parameter by parameter,
 * in plain words; after a change of the configuration, only what changed. Screenshots go to
 * test/e2e/screenshots/.
 */

const SERIAL = 'EPC000101';

let world: WorkbenchPage;
let core: Core;
let page: Page;
let client: ServiceClient;
let configurationId: string;

beforeAll(async () => {
  world = await startWorkbenchPage({
    name: 'changes',
    types: ['EPC'],
    prepare: async (service) => {
      configurationId = await buildFlow(service, epcToEpcOverEthernet);
    },
  });
  ({ core, page, client } = world);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

async function changeRows(): Promise<string[]> {
  const view = page.getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` });
  await view.locator('tbody tr, p').first().waitFor(NO_LIMIT);
  return (await view.locator('tbody tr').allInnerTexts()).map((row) =>
    row
      .split('\t')
      .map((cell) => cell.trim())
      .join(' | '),
  );
}

describe('the change view before an apply', () => {
  it('lists every setting as new before the first apply, then only what a configuration change changes', async () => {
    await goTo(page, 'Workbench');
    const row = page.locator(`tr[data-serial="${SERIAL}"]`);
    const changes = row.getByRole('button', { name: `What applying the configuration changes on ${SERIAL}` });
    await changes.waitFor(NO_LIMIT);
    await changes.click();
    const first = await changeRows();
    expect(first).toContain('Safety timeout | not set | 500 ms');
    expect(first).toContain('IP address | not set | 192.168.10.11');
    expect(
      await page.getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` }).innerText(),
    ).toContain('No configuration was confirmed on this device yet');
    await world.shot('16-change-view-first');

    const [device] = (await core.invoke('workbench.devices', {})).filter((d) => d.serialNumber === SERIAL);
    const [job] = await core.invoke('workbench.start', { action: 'configuration', linkIds: [device!.linkId] });
    let deployed: string | null = null;
    while (!deployed) {
      const jobs = await core.invoke('workbench.jobs', {});
      const mine = jobs.find((j) => j.jobId === job!.jobId);
      // A failed apply says why: its message and each step's outcome.
      expect(mine?.phase, JSON.stringify({ message: mine?.resultMessage, steps: mine?.steps })).not.toBe('failed');
      deployed =
        mine?.phase === 'done'
          ? ((await client.devices.list({ serial: SERIAL })).items[0]?.deployedSyncId ?? null)
          : null;
      if (!deployed) await new Promise((resolve) => setTimeout(resolve, 200));
    }

    await client.configurations.update(configurationId, { timeoutConfiguration: '1000ms' });
    // Rescan: the device needs its configuration again, and the row offers the review.
    await page.getByRole('button', { name: 'Rescan', exact: true }).click();
    await changes.waitFor(NO_LIMIT);
    // The view is read when it opens: close it if it is still open from before the apply, then open it.
    if ((await changes.getAttribute('aria-expanded')) === 'true') await changes.click();
    await changes.click();
    await page
      .getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` })
      .getByText(`The device holds syncId ${deployed}`)
      .waitFor(NO_LIMIT);
    expect(await changeRows()).toEqual(['Safety timeout | 500 ms | 1 s']);
    await world.shot('16-change-view-after-edit');
  });
});
