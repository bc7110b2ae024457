import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FLOWS } from '../../../../server/seed/typical-flows';
import { senderReceiverPairs } from '../../../fixtures/demo-topology';
import { goTo, NO_LIMIT, seriousViolations, signIn, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * The demo organization's configurations in a real browser (web mode, Debian's chromium): each
 * one's system picture draws one node per device and one edge per sender-receiver pair, under the
 * app's CSP; and every screen passes axe-core with no serious or critical violation.
 */

let world: WebModePage;
let page: Page;

async function go(screen: string): Promise<void> {
  await goTo(page, screen);
}

/** Looks a wait for the picture takes at most, 100 ms apart. */
const LOOKS = 600;

/**
 * Waits until `shown` holds, looking at most LOOKS times. This test has hung now and then in CI
 * with nothing to say where: a wait that runs out names its step and gives what the page showed,
 * how much of the picture was drawn, its errors and a screenshot.
 */
async function seen(shown: () => Promise<boolean>, step: string): Promise<void> {
  for (let look = 0; look < LOOKS; look += 1) {
    if (await shown()) return;
    await page.waitForTimeout(100);
  }
  const text = (
    await page
      .locator('main')
      .innerText()
      .catch((error: unknown) => `(unreadable: ${String(error)})`)
  )
    .replace(/\s+/g, ' ')
    .slice(0, 1500);
  const canvas = page.getByTestId('topology-canvas');
  const drawn = `${await canvas.locator('.react-flow__node').count()} devices and ${await canvas.locator('.react-flow__edge').count()} links drawn`;
  await world.shot(`topology-stuck-${step.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`).catch(() => undefined);
  throw new Error(
    `Waited ${LOOKS} looks for ${step}. ${drawn}. The page showed: ${text} | page errors: ${world.pageErrors.join(' / ') || 'none'} | console errors: ${world.consoleErrors.join(' / ') || 'none'}`,
  );
}

const visible = (locator: Locator) => () => locator.first().isVisible();
const counted = (locator: Locator, expected: number) => async () => (await locator.count()) === expected;

beforeAll(async () => {
  world = await startWebModePage({ name: 'topology', devices: { pollIntervalMs: 1000 } });
  ({ page } = world);
  await page.getByLabel('Service URL', { exact: true }).waitFor(NO_LIMIT);
  expect(await seriousViolations(page)).toEqual([]);
  await signIn(page, world.workspace);
  // The first list load and designer render pay for the service's and the page's cold start: here,
  // under the setup's allowance, not in the first configuration's test.
  await go('Configurations');
  await page.getByRole('button', { name: `Open ${DEMO_FLOWS[0]!.configuration.name}` }).waitFor(NO_LIMIT);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe('the designer’s system picture in a real browser', () => {
  it.each(DEMO_FLOWS.map((flow, index) => [flow.configuration.name, flow, index] as const))(
    '%s: one node per device, one edge per sender-receiver pair',
    async (_name, flow, index) => {
      await go('Configurations');
      const open = page.getByRole('button', { name: `Open ${flow.configuration.name}` });
      await seen(visible(open), `${flow.key}: its Open button in the list`);
      await open.click();
      await seen(visible(page.getByRole('heading', { name: 'System' })), `${flow.key}: the designer's System panel`);
      const canvas = page.getByTestId('topology-canvas');
      const devices = canvas.locator('.react-flow__node');
      const links = canvas.locator('.react-flow__edge');
      await seen(counted(devices, flow.devices.length), `${flow.key}: every device of the picture`);
      await seen(counted(links, senderReceiverPairs(flow).length), `${flow.key}: every link of the picture`);
      await seen(visible(devices), `${flow.key}: the picture's devices on screen`);
      // A link's own line: the edge's group can be flat (a sender level with its receiver), its path has a stroke.
      expect(await links.locator('.react-flow__edge-path').count()).toBe(senderReceiverPairs(flow).length);
      await world.shot(`topology-${String(index + 1).padStart(2, '0')}-${flow.key}`);
      // A status refresh hands the picture over anew: its links stay drawn.
      await page.getByRole('button', { name: 'Refresh' }).click();
      expect(await links.count()).toBe(senderReceiverPairs(flow).length);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );

  it('passes axe-core on every screen', async () => {
    const nav = page.getByRole('navigation', { name: 'Screens' }).getByRole('button');
    const screens = await nav.allInnerTexts();
    expect(screens.length).toBeGreaterThan(3);
    const found: string[] = [];
    for (const screen of screens) {
      await go(screen.trim());
      await page.getByRole('heading', { level: 1 }).first().waitFor(NO_LIMIT);
      found.push(...(await seriousViolations(page)).map((v) => `${screen.trim()}: ${v}`));
    }
    expect(found).toEqual([]);
  });

  it('draws under the app’s CSP with no error in the console', () => {
    expect([...world.pageErrors, ...world.consoleErrors]).toEqual([]);
  });
});
