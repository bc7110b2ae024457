import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  simulationPortOf,
  startSimulatedWorkbench,
  type SimulatedWorkbench,
} from '../../../../main/hosts/web/simulated-workbench';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { lookUntil } from './helpers/looks';
import { auditPage, findingsOf } from './helpers/pseudo-audit';
import { deviceKeys, NO_LIMIT, startWebModePage, type WebModePage } from './helpers/web-mode-page';
import { WORKBENCH_DEVICES } from './helpers/workbench-page';

/**
 * Issue 29, the pseudo-locale over every screen: web mode in Debian's chromium with `?lang=en-XA`
 * (every catalog message accented, about 40 % longer and between ⟦ ⟧), on the local workspace
 * with a simulated bench of the devices of one demo configuration. On each screen, and in the
 * states that show more of it (the designer open, the Workbench's rows, the Station set up,
 * running and stopped), the page is audited (helpers/pseudo-audit.ts): a visible text that came
 * from no catalog and is not data, or a label cut off or spilling out of its box, fails that
 * screen's test, which lists every offender. The first test proves the audit can fail.
 *
 * SCREENS is the list both renderer engineers extend: a new screen gets a line here.
 */

const LOADER = demoConfigurations()[0]!.seeded;
const CONFIGURATION = LOADER.configuration.name;
const BENCH = LOADER.devices.map((d) => ({ deviceType: d.deviceType, serialNumber: d.payload.serialNumber }));
const OPERATOR = 'Dana Weber';

let world: WebModePage;
let page: Page;
let bench: SimulatedWorkbench | null = null;

/** Looks a wait takes at most, a quarter second apart. */
const LOOKS = 480;
const PAUSE_MS = 250;

beforeAll(async () => {
  world = await startWebModePage({
    name: 'pseudo-locale',
    devices: WORKBENCH_DEVICES,
    fullPageShots: true,
    simulation: simulationPortOf(() => bench),
    prepare: async (setup) => {
      bench = await startSimulatedWorkbench({
        dir: join(setup.dir, 'workbench'),
        ...(await deviceKeys(setup.workspace.serviceUrl)),
        devices: BENCH,
      });
      setup.stopOnClose(() => bench!.stop());
    },
  });
  ({ page } = world);
  // The access token moved to the tab's session storage on the first load: the same tab opens the app again in en-XA.
  await page.goto(new URL('/?lang=en-XA', world.server.openUrl).href);
  await page.locator('html[lang="en-XA"]').waitFor(NO_LIMIT);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

/** Until the main part of the page shows the same text twice in a row: lists loaded, nothing still arriving. */
async function settled(what: string): Promise<void> {
  let last = '';
  await lookUntil(
    `${what} to settle`,
    async () => {
      await page.evaluate('document.fonts.ready');
      const now = await page.locator('body').innerText();
      const same = now === last && !/Loading|⟦Ļóáðíñĝ/.test(now);
      last = now;
      return same;
    },
    (same) => same,
    { looks: LOOKS, pauseMs: PAUSE_MS },
  );
}

async function until(what: string, locator: Locator): Promise<void> {
  await lookUntil(
    what,
    () => locator.count(),
    (n) => n > 0,
    { looks: LOOKS, pauseMs: PAUSE_MS },
  );
}

/** Audits the page as it is now; a screenshot either way, to look at. */
async function expectAllFromCatalogs(screen: string): Promise<void> {
  await settled(screen);
  const findings = findingsOf(screen, await auditPage(page));
  await world.shot(`29-pseudo-${screen.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`);
  expect(findings, `${screen}: ${findings.length} finding(s)`).toEqual([]);
}

async function go(screen: string): Promise<void> {
  await page.locator(`nav [data-screen="${screen}"]`).click();
  await page.locator(`nav [data-screen="${screen}"][aria-current="page"]`).waitFor(NO_LIMIT);
}

/** Every screen of the sidebar, by its data-screen id, with what the test names it. */
const SCREENS: ReadonlyArray<readonly [id: string, name: string]> = [
  ['configurations', 'Configurations'],
  ['devices', 'Devices'],
  ['workbench', 'Workbench'],
  ['station', 'Station'],
  ['firmware', 'Firmware'],
  ['templates', 'Network templates'],
  ['users', 'Users'],
  ['apiKeys', 'API keys'],
  ['outbox', 'Outbox'],
];

describe('the pseudo-locale over every screen', () => {
  it('the audit finds a text from no catalog and a label cut off (it can fail)', async () => {
    // Built through the DOM: the page's CSP refuses style attributes in parsed HTML.
    await page.evaluate(`(() => {
      const probe = document.createElement('div');
      probe.id = 'audit-probe';
      const line = (text) => {
        const p = document.createElement('p');
        p.textContent = text;
        probe.append(p);
        return p;
      };
      line('Plain English');
      line('EPC000101').setAttribute('translate', 'no');
      line('12.5 kB/s · 37 %');
      const cut = line('⟦Ŕéšçáñ~~~~⟧');
      Object.assign(cut.style, { width: '40px', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' });
      document.body.append(probe);
    })()`);
    const audit = await auditPage(page);
    await page.evaluate(`document.getElementById('audit-probe')?.remove()`);
    expect(audit.untranslated.filter((line) => line.includes('Plain English'))).toHaveLength(1);
    expect(audit.untranslated.some((line) => /EPC000101|kB\/s/.test(line))).toBe(false);
    expect(audit.clipped.filter((line) => line.includes('Ŕéšçáñ') && line.includes('ellipsis'))).toHaveLength(1);
  });

  it('Sign in', async () => {
    await until('the sign-in form', page.locator('form.signin__form input[type="password"]'));
    await expectAllFromCatalogs('Sign in');
  });

  describe('signed in to the local workspace', () => {
    beforeAll(async () => {
      await world.core.session.useLocalWorkspace();
      await page.reload();
      await until('the top bar', page.getByTestId('who-role'));
    }, 120_000);

    for (const [id, name] of SCREENS) {
      it(name, async () => {
        await go(id);
        await expectAllFromCatalogs(name);
      });
    }

    it('Configurations: the designer open', async () => {
      await go('configurations');
      const open = page.locator('main td button', { hasText: CONFIGURATION });
      await until(`${CONFIGURATION} in the list`, open);
      await open.first().click();
      await until('the system picture', page.getByTestId('topology-canvas'));
      await expectAllFromCatalogs('Designer');
    });

    it('Workbench: the bench devices identified, with what each needs', async () => {
      await go('workbench');
      for (const device of BENCH)
        await until(
          `${device.serialNumber}'s row`,
          page.locator(`tr[data-serial="${device.serialNumber}"] [data-testid="workbench-firmware"]`),
        );
      await page.locator('details.simulated-bench summary').click();
      await expectAllFromCatalogs('Workbench with devices');
    });

    it('Station: set up, its parameters shown, running to the end, and stopped', async () => {
      await go('station');
      const setup = page.locator('form.station-setup');
      await until('the setup form', setup);
      await setup.locator('select').nth(0).selectOption(CONFIGURATION);
      // Configuration only: the bench's devices run the firmware they have.
      await setup.locator('select').nth(2).selectOption('keep');
      await until('the shift parameters', page.getByTestId('shift-checksum'));
      await expectAllFromCatalogs('Station set up');

      const checksum = (await page.getByTestId('shift-checksum').innerText()).trim();
      const fields = setup.locator('.station-setup__confirm input');
      await fields.nth(0).fill(OPERATOR);
      await fields.nth(1).fill(checksum);
      await setup.locator('.station-setup__confirm button[type="submit"]').click();
      await lookUntil(
        'every bench device done on the station',
        () =>
          page.getByTestId('station-tile').evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('data-state'))),
        (states) => states.length === BENCH.length && states.every((state) => state === 'done' || state === 'in-sync'),
        { looks: LOOKS, pauseMs: PAUSE_MS },
      );
      await expectAllFromCatalogs('Station running');

      await page.locator('main .screen-header__actions button').click();
      await until('the shift report', page.getByTestId('station-report'));
      await expectAllFromCatalogs('Station stopped');
    });

    it("Workbench after the Station's jobs: finished rows, the parameters to confirm, a timeline", async () => {
      await go('workbench');
      await until('a parameter table', page.getByTestId('parameter-verification'));
      const timeline = page.locator(
        `tr[data-serial="${BENCH[0]!.serialNumber}"] .actions-col button[aria-controls^="timeline-"]`,
      );
      await timeline.click();
      await until('the timeline', page.locator('.job-timeline'));
      await expectAllFromCatalogs('Workbench after jobs');
    });

    describe('screenshots to look at: the Workbench, the Station and the designer in German (light), Chinese (dark) and German in high contrast', () => {
      for (const [language, theme] of [
        ['de', 'light'],
        ['zh', 'dark'],
        ['de', 'high-contrast'],
      ] as const) {
        it(`${language}, ${theme}`, async () => {
          await page.locator('.topbar__setting select').first().selectOption(language);
          await page.locator(`html[lang="${language}"]`).waitFor(NO_LIMIT);
          await page.getByTestId('theme-select').selectOption(theme);
          const name = (screen: string) => `29-${language}-${theme}-${screen}`;
          await go('workbench');
          for (const device of BENCH)
            await until(`${device.serialNumber}'s row`, page.locator(`tr[data-serial="${device.serialNumber}"]`));
          await settled(`the Workbench in ${language}`);
          await world.shot(name('workbench'));
          await go('station');
          await until('the stopped shift', page.getByTestId('station-report'));
          await settled(`the Station in ${language}`);
          await world.shot(name('station'));
          await go('configurations');
          const open = page.locator('main td button', { hasText: CONFIGURATION });
          await until(`${CONFIGURATION} in the list`, open);
          await open.first().click();
          await until('the system picture', page.getByTestId('topology-canvas'));
          await settled(`the designer in ${language}`);
          await world.shot(name('designer'));
          expect(world.pageErrors).toEqual([]);
        });
      }
    });
  });
});
