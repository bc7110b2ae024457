/**
 * The Devices screen at a million devices (issue 30), `npm run bench -- devices-screen [--json]
 * [--devices=N] [--small=N] [--searches=N]`: on a throwaway PostgreSQL cluster, an organization of N
 * devices (default 1,000,000) and one of 1,000, bulk-loaded as bench/scale.ts loads them
 * (test/fixtures/bulk-devices.ts); the app in web mode (the core in this process, the built
 * renderer in Debian's chromium), one page signed in to each organization through the HTTP
 * service. Then, interleaved, `--searches` times on each page: the search box emptied (the first
 * page shown again), a serial number drawn at random typed into it key by key (TYPE_DELAY_MS apart,
 * faster than the search waits for a pause), and the time from the last key to the frame that
 * shows the device's row, the table no longer waiting for the service. Measured in the page
 * (performance.now, an input listener, a MutationObserver and the next animation frame), so the
 * browser's remote control does not count.
 *
 * Prints a table, and with --json one JSON object as the last line. Every loop is bounded.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createCore, FileSecretStore, type Core } from '../main/core';
import { rendererIsCurrent, RENDERER_DIST_DIR } from '../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../main/hosts/web/server';
import { SEARCH_DEBOUNCE_MS } from '../renderer/components/use-debounced';
import { createOrganizationWithKey, openDatabase, startService } from '../server';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { pgCtlCommand, startPostgres } from '../scripts/stack';
import { builtApp } from '../test/fixtures/built-app';
import { bulkSerial, registerBulkDevices } from '../test/fixtures/bulk-devices';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    devices: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    searches: { type: 'string', default: '20' },
  },
});
const positive = (name: string, text: string): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`error: --${name} must be a whole number of at least 1, got "${text}"`);
    process.exit(2);
  }
  return value;
};
const LARGE = positive('devices', values.devices);
const SMALL = positive('small', values.small);
const SEARCHES = positive('searches', values.searches);
if (LARGE < SMALL) {
  console.error('error: --devices must be at least --small');
  process.exit(2);
}

/** Between keys: a quick typist, and well inside the search's pause, so one search goes per serial number. */
const TYPE_DELAY_MS = 60;
/** A search that shows nothing for this long has failed (the bench stops rather than wait for ever). */
const GIVE_UP_MS = 120_000;
const SEARCH_LABEL = 'Search name, serial number, type';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-component-update'];

const log = (text: string) => process.stderr.write(`${text}\n`);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

interface Org {
  id: string;
  /** The serial numbers' first letter. */
  letter: string;
  devices: number;
  key: string;
}

/** One page of the app, its own core and web server, signed in to one organization. */
interface AppPage {
  org: Org;
  core: Core;
  server: WebServer;
  page: Page;
  fromLastKey: number[];
  fromFirstKey: number[];
}

async function openAppPage(browser: Browser, dir: string, org: Org, serviceUrl: string): Promise<AppPage> {
  const dataDir = join(dir, org.id);
  await mkdir(dataDir, { recursive: true });
  const core = await createCore({
    dataDir,
    secretStore: new FileSecretStore(join(dataDir, 'secrets.json')),
    host: 'web',
    resume: false,
    // No devices to look for: the bench measures the registry, not the bench's ports.
    deviceList: { serial: { portGlobs: [], listPorts: async () => [] }, multicast: false, pollIntervalMs: 600_000 },
  });
  const server = await startWebServer({ core, rendererDir: RENDERER_DIST_DIR });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const page = await context.newPage();
  await page.goto(server.openUrl);
  await page.getByLabel('Service URL', { exact: true }).fill(serviceUrl);
  await page.getByLabel('Organization', { exact: true }).fill(org.id);
  await page.getByLabel('API key', { exact: true }).fill(org.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who-role').waitFor({ timeout: GIVE_UP_MS });
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Devices' }).click();
  await firstPageShown(page, org);
  return { org, core, server, page, fromLastKey: [], fromFirstKey: [] };
}

/** The list's first page: its first device's row, the table no longer waiting. */
async function firstPageShown(page: Page, org: Org): Promise<void> {
  await page
    .locator(`table[aria-busy="false"] tbody tr:first-child[data-serial="${bulkSerial(org.letter, 1)}"]`)
    .waitFor({ timeout: GIVE_UP_MS });
}

interface Probe {
  firstKey: number;
  lastKey: number;
  shown: number;
}

/**
 * The page's script (a string: it runs in the browser) that sets `window.benchProbe`: a promise of
 * the first and last key's times in the search box and the time of the frame after the row of
 * `serial` shows with the whole serial number typed and the table no longer waiting.
 */
function armProbe(serial: string): string {
  return `(() => {
    const serial = ${JSON.stringify(serial)};
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === ${JSON.stringify(SEARCH_LABEL)});
    const input = label && label.control;
    if (!input) throw new Error('no search box');
    const times = { firstKey: 0, lastKey: 0 };
    window.benchProbe = new Promise((resolve, reject) => {
      const done = () =>
        input.value === serial &&
        document.querySelector('table[aria-busy="false"] tbody tr[data-serial="' + serial + '"]') !== null;
      const check = () => {
        if (!done()) return;
        input.removeEventListener('input', onInput);
        observer.disconnect();
        clearTimeout(giveUp);
        requestAnimationFrame(() => resolve({ ...times, shown: performance.now() }));
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
      const giveUp = setTimeout(() => {
        observer.disconnect();
        reject(new Error(serial + ' not shown within ${GIVE_UP_MS} ms'));
      }, ${GIVE_UP_MS});
      const onInput = () => {
        const now = performance.now();
        if (times.firstKey === 0) times.firstKey = now;
        times.lastKey = now;
        check();
      };
      input.addEventListener('input', onInput);
    });
  })()`;
}

/** One search: empty the box, then type a random device's serial number and time its row's frame. */
async function search(app: AppPage): Promise<void> {
  const box = app.page.getByLabel(SEARCH_LABEL, { exact: true });
  await box.fill('');
  await firstPageShown(app.page, app.org);
  const serial = bulkSerial(app.org.letter, 1 + Math.floor(Math.random() * app.org.devices));
  // Armed before the first key; resolves in the frame after the row shows for the whole serial number.
  await app.page.evaluate(armProbe(serial));
  await box.pressSequentially(serial, { delay: TYPE_DELAY_MS });
  const probe = (await app.page.evaluate('window.benchProbe')) as Probe;
  app.fromLastKey.push(probe.shown - probe.lastKey);
  app.fromFirstKey.push(probe.shown - probe.firstKey);
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function main(): Promise<void> {
  if (!rendererIsCurrent()) {
    log('building the app (the renderer is older than its sources)…');
    await builtApp();
  }
  const runDir = mkdtempSync(join(tmpdir(), 'provisioner-bench-devices-screen-'));
  const { postgres, databaseUrl } = await startPostgres(runDir);
  process.env[PASSWORD_FILE_ENV] = postgres.passwordFile;
  const stopPostgres = () => spawnSync(...pgCtlCommand(postgres, 'stop'), { stdio: 'ignore' });
  const apps: AppPage[] = [];
  let browser: Browser | undefined;
  try {
    const db = await openDatabase({ databaseUrl });
    const service = await startService({ db, port: 0 });
    try {
      const orgs: Org[] = [];
      for (const [id, letter, devices] of [
        ['large', 'L', LARGE],
        ['small', 'S', SMALL],
      ] as const) {
        const key = await createOrganizationWithKey(db, { orgId: id, keyName: 'bench', role: 'Admin' });
        const started = performance.now();
        await registerBulkDevices(db, id, letter, devices);
        log(`seeded ${devices} devices in ${id} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        orgs.push({ id, letter, devices, key });
      }
      await db.query('ANALYZE');

      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
      for (const org of orgs) apps.push(await openAppPage(browser, runDir, org, service.url));
      const [large, small] = apps as [AppPage, AppPage];
      // One search on each first, unmeasured: the pages' first renders and the service's first plans.
      await search(large);
      await search(small);
      large.fromLastKey.length = large.fromFirstKey.length = small.fromLastKey.length = small.fromFirstKey.length = 0;
      for (let i = 0; i < SEARCHES; i++) {
        // Alternating which goes first, so neither always follows the other.
        for (const app of i % 2 === 0 ? [large, small] : [small, large]) await search(app);
      }

      const figure = (app: AppPage) => ({
        p50_ms: round(percentile(app.fromLastKey, 50)),
        p95_ms: round(percentile(app.fromLastKey, 95)),
        p95_from_first_key_ms: round(percentile(app.fromFirstKey, 95)),
      });
      const l = figure(large);
      const s = figure(small);
      log(
        `\n${cpus().length} cores; the Devices screen in web mode (chromium), ${LARGE} vs ${SMALL} devices on PostgreSQL, ${SEARCHES} searches each, keys ${TYPE_DELAY_MS} ms apart, search after ${SEARCH_DEBOUNCE_MS} ms of quiet`,
      );
      log('devices     last key → row shown: p50    p95    (from first key: p95)');
      for (const [n, f] of [
        [SMALL, s],
        [LARGE, l],
      ] as const)
        log(
          `${String(n).padStart(9)}  ${String(f.p50_ms).padStart(26)}  ${String(f.p95_ms).padStart(5)}    (${f.p95_from_first_key_ms})`,
        );
      const result = {
        devices_large: LARGE,
        devices_small: SMALL,
        cores: cpus().length,
        searches: SEARCHES,
        type_delay_ms: TYPE_DELAY_MS,
        debounce_ms: SEARCH_DEBOUNCE_MS,
        p50_small_ms: s.p50_ms,
        p95_small_ms: s.p95_ms,
        p50_large_ms: l.p50_ms,
        p95_large_ms: l.p95_ms,
        ratio: round(l.p95_ms / s.p95_ms, 2),
        p95_from_first_key_small_ms: s.p95_from_first_key_ms,
        p95_from_first_key_large_ms: l.p95_from_first_key_ms,
      };
      if (values.json) console.log(JSON.stringify(result));
      else console.log(JSON.stringify(result, null, 2));
    } finally {
      await browser?.close();
      for (const app of apps) {
        await app.server.close();
        await app.core.close();
      }
      await service.close();
      await db.close();
    }
  } finally {
    stopPostgres();
    rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
