import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../../main/cloud';
import { registerWorkbenchDevices } from '../../../../main/hosts/web/simulated-workbench';
import { startSimulatedDevice } from '../../../../simulator';
import { deviceKeys, goTo, NO_LIMIT, startWebModePage, type WebModePage } from './helpers/web-mode-page';
import { startWorkspaceWorkbench, WORKBENCH_DEVICES } from './helpers/workbench-page';

/**
 * Two attached devices that claim one serial number, on the Workbench in a real browser: the
 * workbench's EPC000101 and a copy of it on a second pty. Both rows are flagged with the reason
 * in a technician's words, every job action on them is offered disabled with that reason, and the
 * screen passes axe-core. Screenshots go to test/e2e/screenshots/.
 */

const SERIAL = 'EPC000101';

let world: WebModePage;
let page: Page;
let copyLink: string;
let realLink: string;

beforeAll(async () => {
  world = await startWebModePage({
    name: 'shared-serial',
    devices: WORKBENCH_DEVICES,
    fullPageShots: true,
    prepare: async (setup) => {
      await startWorkspaceWorkbench(setup, ['EPC']);
      const ptyDir = join(setup.dir, 'workbench', 'pty');
      realLink = `serial:${join(ptyDir, SERIAL)}`;
      copyLink = `serial:${join(ptyDir, `${SERIAL}-copy`)}`;
      // The copy: old firmware, no configuration, its own memory and port, where the workbench's devices appear.
      const copy = await startSimulatedDevice({
        deviceType: 'EPC',
        serialNumber: SERIAL,
        link: 'pty',
        ...(await deviceKeys(setup.workspace.serviceUrl)),
        stateDir: join(setup.dir, 'copy'),
        ptyDir,
        ptyPath: join(ptyDir, `${SERIAL}-copy`),
        controlSocketPath: join(setup.dir, 'copy.sock'),
      });
      setup.stopOnClose(() => copy.stop());
      const { workspace } = setup;
      await registerWorkbenchDevices(
        createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey }),
        [SERIAL],
      );
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ page } = world);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe('two attached devices that claim one serial number, on the Workbench', () => {
  it('flags both rows with the reason, offers every action disabled with it, and passes axe-core', async () => {
    await goTo(page, 'Workbench');
    const reason = `Two attached devices claim serial ${SERIAL} (`;
    const flags = page.getByTestId('workbench-shared-serial');
    await page.locator(`tr[data-link="${copyLink}"] [data-testid="workbench-shared-serial"]`).waitFor(NO_LIMIT);
    await page.locator(`tr[data-link="${realLink}"] [data-testid="workbench-shared-serial"]`).waitFor(NO_LIMIT);
    expect(await flags.count()).toBe(2);
    for (const flag of await flags.all()) {
      expect(await flag.innerText()).toContain('Serial claimed twice');
      expect(await flag.innerText()).toContain(
        'Unplug one of the 2 devices; until then nothing is sent to the service for this serial and no job can start.',
      );
      const whole = await flag.getAttribute('title');
      expect(whole).toContain(reason);
      expect(whole).toContain(realLink);
      expect(whole).toContain(copyLink);
      expect(whole).toContain('Nothing is sent to the service for it, and no job can start, until one is unplugged.');
    }
    await page.locator(`tr[data-link="${copyLink}"]`).getByRole('checkbox').check();
    const fullReason =
      (await page
        .locator(`tr[data-link="${copyLink}"] [data-testid="workbench-shared-serial"]`)
        .getAttribute('title')) ?? '';
    for (const name of ['Update firmware', 'Verify firmware', 'Apply configuration', 'Both']) {
      const button = page.getByRole('button', { name, exact: true });
      if ((await button.count()) === 0) continue;
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      expect(await button.getAttribute('title')).toBe(fullReason);
    }
    expect(await page.getByTestId('workbench-shared-serial-chosen').innerText()).toContain(fullReason);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious).toEqual([]);
    await world.shot('shared-serial-01-flagged');
  });
});
