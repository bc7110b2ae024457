import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { registerWorkbenchDevices, startSimulatedWorkbench } from '../../../../main/hosts/web/simulated-workbench';
import { createServiceClient } from '../../../../main/cloud';
import { THEMES, type Theme } from '../../../../renderer/theme/theme-choice';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import type { ShiftRun } from '../../../../simulator/shift-plan';
import { driftedShift } from './helpers/drifted-shift';
import { lookUntil } from './helpers/looks';
import { deviceKeys, goTo, NO_LIMIT, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * Issue 29's themes in a real browser (web mode, Debian's chromium): the theme follows the
 * system's media queries (dark, more contrast, forced colours) until the technician chooses one in
 * the top bar; and in each theme, light, dark and high contrast, axe-core finds no serious or
 * critical violation, colour contrast included, on every screen: the Workbench with a finished row
 * that needs attention, the Station with a done and a failed tile and a refused device, the
 * designer with a configuration open, and the rest. Each status shown carries its mark (✓ ✗ ⚠)
 * besides its colour. Screenshots of the Workbench, the Station and the designer in each theme go
 * to test/e2e/screenshots/themes-*.png.
 */

const LOADER = demoConfigurations()[0]!.seeded;
const [SRCP, EPC] = LOADER.devices.map((d) => d.payload.serialNumber) as [string, string];
/** On the bench, registered, in no configuration: its "both" job ends firmware installed, configuration not applied. */
const LONE = 'EPC000101';
const BENCH_DIR = 'bench';
const LOOKS = { looks: 1200, pauseMs: 250 };

let world: WebModePage;
let core: Core;
let page: Page;
let shift: ShiftRun | undefined;
let startShift: () => ShiftRun;

beforeAll(async () => {
  world = await startWebModePage({
    name: 'themes',
    devices: { ptyDir: join(BENCH_DIR, 'pty'), pollIntervalMs: 300, multicast: false },
    fullPageShots: true,
    prepare: async (setup) => {
      const keys = await deviceKeys(setup.workspace.serviceUrl);
      const bench = await startSimulatedWorkbench({
        dir: join(setup.dir, BENCH_DIR),
        ...keys,
        devices: [{ deviceType: 'EPC', serialNumber: LONE }],
      });
      setup.stopOnClose(() => bench.stop());
      const { workspace } = setup;
      await registerWorkbenchDevices(
        createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey }),
        [LONE],
      );
      // The Station's shift: the loader's two devices on the same bench, one storing a safety timeout
      // other than its file's (it fails the parameter check and is kept apart).
      startShift = driftedShift({
        ptyDir: join(setup.dir, BENCH_DIR, 'pty'),
        stateDir: join(setup.dir, 'shift-devices'),
        keys,
        srcp: SRCP,
        epc: EPC,
        driftedTimeoutMs: 1024,
      });
      setup.stopOnClose(async () => {
        await shift?.stop();
      });
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ core, page } = world);
  await page.getByTestId('who-role').waitFor(NO_LIMIT);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

const html = () => page.locator('html');

/** Chooses the theme in the top bar, as a technician does, and waits until <html> carries it. */
async function choose(theme: Theme | 'system'): Promise<void> {
  await page.getByTestId('theme-select').selectOption(theme);
  if (theme !== 'system') await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached', timeout: 0 });
}

/**
 * axe-core's serious and critical findings, each prefixed with where they were found; and a
 * finding of its own when axe did not weigh any text's colour contrast there (a check that ran on
 * nothing would pass whatever the theme).
 */
async function violations(where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const weighed = [...results.passes, ...results.violations].some(
    (rule) => rule.id === 'color-contrast' && rule.nodes.length > 0,
  );
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  return weighed ? serious : [...serious, `${where}: axe weighed no colour contrast`];
}

/** The mark a status's ::before draws before its words, or '' for none. */
async function markOf(selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el, '::before').content);
}

describe('themes', () => {
  it('follow the system until one is chosen, and keep the choice for the next start', async () => {
    await page.emulateMedia({ colorScheme: 'light', contrast: 'no-preference', forcedColors: 'none' });
    await choose('system');
    expect(await html().getAttribute('data-theme')).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached', timeout: 0 });
    await page.emulateMedia({ contrast: 'more' });
    await page.locator('html[data-theme="high-contrast"]').waitFor({ state: 'attached', timeout: 0 });
    await page.emulateMedia({ contrast: 'no-preference', forcedColors: 'active' });
    await page.locator('html[data-theme="high-contrast"]').waitFor({ state: 'attached', timeout: 0 });
    await page.emulateMedia({ forcedColors: 'none' });
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached', timeout: 0 });

    // Chosen: the system's dark no longer applies, and a new start (reload) keeps the choice.
    await choose('light');
    expect(await html().getAttribute('data-theme-choice')).toBe('light');
    await page.reload();
    await page.getByTestId('who-role').waitFor(NO_LIMIT);
    expect(await html().getAttribute('data-theme')).toBe('light');
    expect(await page.getByTestId('theme-select').inputValue()).toBe('light');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it(
    'the Workbench: a row that needs attention, in each theme, passes axe-core and marks its status',
    { timeout: 300_000 },
    async () => {
      await goTo(page, 'Workbench');
      const row = page.locator(`tr[data-serial="${LONE}"]`);
      await row.waitFor(NO_LIMIT);
      const lone = await lookUntil(
        'the lone EPC on the bench',
        () => core.invoke('workbench.devices', {}),
        (devices) => devices.some((d) => d.serialNumber === LONE),
        LOOKS,
      );
      await core.invoke('workbench.start', {
        action: 'both',
        linkIds: [lone.find((d) => d.serialNumber === LONE)!.linkId],
      });
      await row.locator('.step-outcome[data-tone="attention"]').waitFor(NO_LIMIT);
      const found: string[] = [];
      for (const theme of THEMES) {
        await choose(theme);
        found.push(...(await violations(`Workbench (${theme})`)));
        await world.shot(`themes-workbench-${theme}`);
      }
      expect(found).toEqual([]);
      // The row's steps carry their marks as text; the attention is a word too, not only amber.
      expect(await row.locator('[data-step="firmware"] .step-outcome__mark').innerText()).toBe('✓');
      expect(await row.locator('[data-step="configuration"]').innerText()).toContain('configuration not applied');
    },
  );

  it(
    'the Station: a done and a failed tile and a refused device, in each theme, pass axe-core; each tile says its state with a mark',
    { timeout: 400_000 },
    async () => {
      const parameters = await core.invoke('station.parameters', { configurationName: LOADER.configuration.name });
      await core.invoke('station.start', {
        configurationName: LOADER.configuration.name,
        lanes: 2,
        firmware: 'keep',
        operator: 'Theo Theme',
        checksum: parameters.checksumShort,
        language: 'en',
      });
      shift = startShift();
      await goTo(page, 'Station');
      const tile = (serial: string) => page.getByTestId('station-tile').filter({ hasText: serial });
      await tile(SRCP).and(page.locator('[data-state="done"]')).waitFor(NO_LIMIT);
      await tile(EPC).and(page.locator('[data-state="failed"]')).waitFor(NO_LIMIT);
      await page.getByTestId('station-notes').getByText(LONE).waitFor(NO_LIMIT);
      const found: string[] = [];
      for (const theme of THEMES) {
        await choose(theme);
        found.push(...(await violations(`Station (${theme})`)));
        await world.shot(`themes-station-${theme}`);
        // Done is a filled tile unlike failed in every theme, and each headline starts with its mark.
        const done = await tile(SRCP).evaluate(
          (el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor,
        );
        const failed = await tile(EPC).evaluate(
          (el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor,
        );
        expect(done).not.toBe(failed);
        expect(await markOf('.station-tile--done .station-tile__headline')).toMatch(/✓/);
        expect(await markOf('.station-tile--failed .station-tile__headline')).toMatch(/✗/);
        // Read from two metres: the headline's type stays large.
        expect(
          parseFloat(
            await tile(SRCP)
              .locator('.station-tile__headline')
              .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).fontSize),
          ),
        ).toBeGreaterThanOrEqual(32);
      }
      expect(found).toEqual([]);
    },
  );

  it('every screen and the designer pass axe-core in each theme', { timeout: 400_000 }, async () => {
    const nav = page.getByRole('navigation', { name: 'Screens' }).getByRole('button');
    const screens = (await nav.allInnerTexts()).map((s) => s.trim().split('\n')[0]!.trim());
    expect(screens.length).toBeGreaterThan(5);
    const found: string[] = [];
    for (const theme of THEMES) {
      await choose(theme);
      for (const screen of screens) {
        await goTo(page, screen);
        await page.getByRole('heading', { level: 1 }).first().waitFor(NO_LIMIT);
        found.push(...(await violations(`${screen} (${theme})`)));
      }
      await goTo(page, 'Configurations');
      await page.getByRole('button', { name: `Open ${LOADER.configuration.name}` }).click();
      await page.getByTestId('topology-canvas').locator('.react-flow__node').first().waitFor(NO_LIMIT);
      found.push(...(await violations(`designer (${theme})`)));
      // The configuration's Complete badge: ✓ before the word.
      expect(await markOf('.badge--ok')).toMatch(/✓/);
      await world.shot(`themes-designer-${theme}`);
    }
    expect(found).toEqual([]);
  });

  it('draw under the app’s CSP with no error in the console', () => {
    expect([...world.pageErrors, ...world.consoleErrors]).toEqual([]);
  });
});
