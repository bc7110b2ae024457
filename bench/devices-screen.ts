/**
 * The Devices screen and the designer's device picker at a million devices (issue 30), `npm run
 * bench -- devices-screen [--json] [--devices=N] [--small=N] [--searches=N]`: on a throwaway
 * PostgreSQL cluster, an organization of N devices (default 1,000,000) and one of 1,000,
 * bulk-loaded as bench/scale.ts loads them (test/fixtures/bulk-devices.ts); the app in web mode
 * (the core in this process, the built renderer in Debian's chromium), one page signed in to each
 * organization through the HTTP service. On the Devices screen, then in the designer's add-device
 * form (the picker of free devices), interleaved between the two pages, `--searches` times each:
 * the search box emptied (the first page shown again), a serial number drawn at random typed into
 * it key by key (TYPE_DELAY_MS apart, faster than the search waits for a pause), and the time from
 * the last key to the frame that shows the device (its row, the table no longer waiting for the
 * service; its option in the picker). Measured in the page (performance.now, an input listener, a
 * MutationObserver and the next animation frame), so the browser's remote control does not count.
 *
 * Prints a table, and with --json one JSON object as the last line: the Devices screen's p50/p95
 * at both sizes and their p95 ratio at the top, the picker's under `device_picker`. Every loop is
 * bounded.
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
import { SEARCH_DEBOUNCE_MS } from '../domain/list-search';
import { createOrganizationWithKey, openDatabase, startService } from '../server';
import { PASSWORD_FILE_ENV } from '../server/db/password-file';
import { pgCtlCommand, startPostgres } from '../scripts/stack';
import { builtApp } from '../test/fixtures/built-app';
import { bulkSerial, registerBulkDevices } from '../test/fixtures/bulk-devices';
import { percentile, positiveFlag } from './bench-figures';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    devices: { type: 'string', default: '1000000' },
    small: { type: 'string', default: '1000' },
    searches: { type: 'string', default: '20' },
  },
});
const LARGE = positiveFlag('devices', values.devices);
const SMALL = positiveFlag('small', values.small);
const SEARCHES = positiveFlag('searches', values.searches);
if (LARGE < SMALL) {
  console.error('error: --devices must be at least --small');
  process.exit(2);
}

/** Between keys: a quick typist, and well inside the search's pause, so one search goes per serial number. */
const TYPE_DELAY_MS = 60;
/** A search that shows nothing for this long has failed (the bench stops rather than wait for ever). */
const GIVE_UP_MS = 120_000;
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
}

/**
 * Where the technician searches: the Devices screen's table, or the designer's device picker (the
 * free devices, as options of its select). Each is found by its search box's label; `shown` is the
 * selector of what shows `serial` once the answer to its search is in.
 */
interface Surface {
  name: 'devices-screen' | 'device-picker';
  searchLabel: string;
  shown(serial: string): string;
}

const DEVICES_SCREEN: Surface = {
  name: 'devices-screen',
  searchLabel: 'Search name, serial number, type',
  // The table is busy from the first key until the answer to the last search is drawn.
  shown: (serial) => `table[aria-busy="false"] tbody tr[data-serial="${serial}"]`,
};
const DEVICE_PICKER: Surface = {
  name: 'device-picker',
  searchLabel: 'Find a device',
  shown: (serial) => `select[name="serialNumber"] option[value="${serial}"]`,
};

/** The times of one surface's searches on one page, from the last key and from the first. */
interface Samples {
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
  await firstPageShown(page, org, DEVICES_SCREEN);
  return { org, core, server, page };
}

/** From the Devices screen to the designer's add-device form of a new configuration. */
async function openDevicePicker(app: AppPage): Promise<void> {
  const { page } = app;
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Configurations' }).click();
  await page.getByRole('button', { name: 'New configuration' }).click();
  await page.getByLabel('Name of the new configuration', { exact: true }).fill('Bench line');
  await page.getByRole('button', { name: 'Create and open' }).click();
  await page.getByRole('button', { name: 'Add device' }).click();
  await firstPageShown(page, app.org, DEVICE_PICKER);
}

/** The surface with nothing searched: its first device shown (the list's first page, the first free device). */
async function firstPageShown(page: Page, org: Org, surface: Surface): Promise<void> {
  await page
    .locator(surface.shown(bulkSerial(org.letter, 1)))
    .first()
    .waitFor({ state: 'attached', timeout: GIVE_UP_MS });
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
function armProbe(surface: Surface, serial: string): string {
  return `(() => {
    const serial = ${JSON.stringify(serial)};
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === ${JSON.stringify(surface.searchLabel)});
    const input = label && label.control;
    if (!input) throw new Error('no search box');
    const times = { firstKey: 0, lastKey: 0 };
    window.benchProbe = new Promise((resolve, reject) => {
      const done = () =>
        input.value === serial && document.querySelector(${JSON.stringify(surface.shown(serial))}) !== null;
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

/**
 * One search: empty the box (the first page shown again), then type a random device's serial
 * number and time the frame that shows it. Drawn beyond the first 30 devices, which show before
 * any search.
 */
async function search(app: AppPage, surface: Surface, samples: Samples): Promise<void> {
  const box = app.page.getByLabel(surface.searchLabel, { exact: true });
  await box.fill('');
  await firstPageShown(app.page, app.org, surface);
  const serial = bulkSerial(app.org.letter, 31 + Math.floor(Math.random() * (app.org.devices - 30)));
  await app.page.evaluate(armProbe(surface, serial));
  await box.pressSequentially(serial, { delay: TYPE_DELAY_MS });
  const probe = (await app.page.evaluate('window.benchProbe')) as Probe;
  samples.fromLastKey.push(probe.shown - probe.lastKey);
  samples.fromFirstKey.push(probe.shown - probe.firstKey);
}

interface Figure {
  p50_small_ms: number;
  p95_small_ms: number;
  p50_large_ms: number;
  p95_large_ms: number;
  ratio: number;
  p95_from_first_key_small_ms: number;
  p95_from_first_key_large_ms: number;
}

/** `SEARCHES` searches on each page, interleaved, after one unmeasured on each. */
async function measure(large: AppPage, small: AppPage, surface: Surface): Promise<Figure> {
  const samples = new Map<AppPage, Samples>([
    [large, { fromLastKey: [], fromFirstKey: [] }],
    [small, { fromLastKey: [], fromFirstKey: [] }],
  ]);
  // The pages' first renders and the service's first plans: not counted.
  for (const app of [large, small]) await search(app, surface, { fromLastKey: [], fromFirstKey: [] });
  for (let i = 0; i < SEARCHES; i++) {
    // Alternating which goes first, so neither always follows the other.
    for (const app of i % 2 === 0 ? [large, small] : [small, large]) await search(app, surface, samples.get(app)!);
  }
  const of = (app: AppPage, p: number, from: keyof Samples) => round(percentile(samples.get(app)![from], p));
  const figure: Figure = {
    p50_small_ms: of(small, 50, 'fromLastKey'),
    p95_small_ms: of(small, 95, 'fromLastKey'),
    p50_large_ms: of(large, 50, 'fromLastKey'),
    p95_large_ms: of(large, 95, 'fromLastKey'),
    ratio: 0,
    p95_from_first_key_small_ms: of(small, 95, 'fromFirstKey'),
    p95_from_first_key_large_ms: of(large, 95, 'fromFirstKey'),
  };
  figure.ratio = round(figure.p95_large_ms / figure.p95_small_ms, 2);
  return figure;
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
      const screen = await measure(large, small, DEVICES_SCREEN);
      for (const app of apps) await openDevicePicker(app);
      const picker = await measure(large, small, DEVICE_PICKER);

      log(
        `\n${cpus().length} cores; web mode (chromium), ${LARGE} vs ${SMALL} devices on PostgreSQL, ${SEARCHES} searches each, keys ${TYPE_DELAY_MS} ms apart, search after ${SEARCH_DEBOUNCE_MS} ms of quiet`,
      );
      log('surface          devices   last key → shown: p50     p95   (from first key: p95)');
      for (const [name, f] of [
        [DEVICES_SCREEN.name, screen],
        [DEVICE_PICKER.name, picker],
      ] as const) {
        log(
          `${name.padEnd(15)} ${String(SMALL).padStart(8)}  ${String(f.p50_small_ms).padStart(22)}  ${String(f.p95_small_ms).padStart(6)}   (${f.p95_from_first_key_small_ms})`,
        );
        log(
          `${name.padEnd(15)} ${String(LARGE).padStart(8)}  ${String(f.p50_large_ms).padStart(22)}  ${String(f.p95_large_ms).padStart(6)}   (${f.p95_from_first_key_large_ms})`,
        );
      }
      const result = {
        devices_large: LARGE,
        devices_small: SMALL,
        cores: cpus().length,
        searches: SEARCHES,
        type_delay_ms: TYPE_DELAY_MS,
        debounce_ms: SEARCH_DEBOUNCE_MS,
        // The Devices screen's figures at the top (the issue's), the picker's beside them.
        ...screen,
        device_picker: picker,
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
