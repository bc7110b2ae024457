import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, FileSecretStore, type Core } from '../../../../main/app';
import { deviceSync, latestFirmwareByType, recordedReading } from '../../../../main/app/jobs/device-sync';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import { buildRenderer } from '../../../../main/hosts/web/build-renderer';
import { trustedReleaseKeys } from '../../../../main/hosts/web/simulated-workbench';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { parseShiftPlan, runShift, type ShiftRun } from '../../../../simulator/shift-plan';

/**
 * The Station screen in a real browser (web mode, Debian's chromium), driven by the keyboard alone:
 * a simulated shift on the demo configuration "Loader 7 remote (ISM)" (its seeded devices), one
 * of them unplugged during its firmware transfer, a device of no part of it and a copy of a serial.
 * Every planned device ends done and in sync by the service, the foreign one is refused and the
 * copy flagged on the screen, the screen passes axe-core, and stopping shows the shift report.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Playwright's waits: no wall-clock limit of their own; the test's timeout is the only guard. */
const NO_LIMIT = { timeout: 0 };
/** Tab presses a walk to one control may take: the sidebar, the top bar and the form hold fewer. */
const MAX_TABS = 80;

const LOADER = demoConfigurations()[0]!.seeded;
const [SRCP, EPC] = LOADER.devices.map((d) => d.payload.serialNumber) as [string, string];
const FOREIGN = 'EPC000101';

let dir: string;
let core: Core;
let server: WebServer;
let browser: Browser;
let page: Page;
let shift: ShiftRun | undefined;
/** Starts the planned shift (the second test does, once the station runs). */
let startShift: () => ShiftRun;
let client: ServiceClient;
const pageErrors: string[] = [];

async function seriousViolations(): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The focused element's accessible text (its label's, for a form control); run in the page. */
const FOCUSED_TEXT = `(() => {
  const el = document.activeElement;
  if (!el) return '';
  const label = el.id ? document.querySelector('label[for="' + CSS.escape(el.id) + '"]') : null;
  return ((label && label.textContent) || el.getAttribute('aria-label') || el.textContent || '').trim();
})()`;

async function focusedText(): Promise<string> {
  return page.evaluate<string>(FOCUSED_TEXT);
}

/** Presses Tab until the focus is on a control whose text matches: how a keyboard user gets there. */
async function tabTo(text: RegExp): Promise<void> {
  for (let i = 0; i < MAX_TABS; i += 1) {
    await page.keyboard.press('Tab');
    if (text.test(await focusedText())) return;
  }
  throw new Error(`Tab never reached a control matching ${text}`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-e2e-station-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  await buildRenderer({ quiet: true });
  const ptyDir = join(dir, 'pty');
  core = await createCore({
    dataDir: join(dir, 'app'),
    secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
    host: 'web',
    resume: false,
    // Only the shift's own simulated devices: no USB ports, no other simulator's ptys or IP devices.
    deviceList: { serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] }, multicast: false, pollIntervalMs: 300 },
  });
  const workspace = await core.session.ensureWorkspace();
  client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: 'demo', apiKey: workspace.apiKey });
  const signing = (await (await fetch(`${workspace.serviceUrl}/v1/config-file-signing-key`)).json()) as { data: { publicKeyPem: string } };
  const releaseKeysPem = await trustedReleaseKeys(workspace.serviceUrl);
  const plan = parseShiftPlan({
    defaults: { ptyDir, releaseKeysPem, baudRate: 921600, rebootMs: 150, applyMs: 50 },
    devices: [
      { deviceType: 'SRCP', serialNumber: SRCP },
      { deviceType: 'EPC', serialNumber: EPC },
      { deviceType: 'EPC', serialNumber: FOREIGN },
      { id: 'copy', deviceType: 'EPC', serialNumber: EPC },
    ],
    plan: [
      { at: 0, plug: SRCP },
      { unplug: SRCP, duringFirmwareAt: 24_000, for: 1500 },
      { at: 100, plug: EPC },
      { at: 400, plug: FOREIGN },
      { at: 2500, plug: 'copy' },
    ],
  });
  server = await startWebServer({ core, rendererDir: fileURLToPath(new URL('../../../../dist/renderer/', import.meta.url)) });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(server.openUrl);
  await page.getByLabel('Service URL', { exact: true }).fill(workspace.serviceUrl);
  await page.getByLabel('Organization', { exact: true }).fill('demo');
  await page.getByLabel('API key', { exact: true }).fill(workspace.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who-role').waitFor(NO_LIMIT);
  startShift = () => runShift({ ...plan, stateDir: join(dir, 'devices'), publicKeyPem: signing.data.publicKeyPem });
}, 180_000);

afterAll(async () => {
  await shift?.stop();
  await browser?.close();
  await server?.close();
  await core?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Station screen', () => {
  it('starts a station for a configuration by keyboard alone', { timeout: 120_000 }, async () => {
    await tabTo(/^Station$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Station' }).waitFor(NO_LIMIT);
    await page.getByRole('option', { name: new RegExp(`^${LOADER.configuration.name.replace(/[()]/g, '\\$&')}`) }).waitFor({ state: 'attached', timeout: 0 });
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'station-01-setup.png') });
    await tabTo(/^Configuration$/);
    // A closed select takes typed letters: the first option starting with them is chosen.
    await page.keyboard.type('Loader');
    await tabTo(/^Lanes$/);
    await page.keyboard.type('2');
    await tabTo(/^Start station$/);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Stop station' }).waitFor(NO_LIMIT);
    await expect.poll(() => page.getByText(`Provisioning “${LOADER.configuration.name}” (2 devices) on 2 lanes`).count(), NO_LIMIT).toBe(1);
  });

  it('provisions the shift: tiles go green, the foreign device is refused and the copied serial flagged', { timeout: 300_000 }, async () => {
    shift = startShift();
    const tiles = page.getByTestId('station-tile');
    await page.locator('[data-testid="station-tile"][data-state="working"]').first().waitFor(NO_LIMIT);
    await page.screenshot({ path: join(SCREENSHOTS, 'station-02-working.png') });
    expect(await seriousViolations()).toEqual([]);
    await shift.finished;
    for (const serial of [SRCP, EPC]) await tiles.filter({ hasText: serial }).and(page.locator('[data-state="done"]')).first().waitFor(NO_LIMIT);
    await page.getByTestId('station-notes').getByText(FOREIGN, { exact: true }).waitFor(NO_LIMIT);
    await page.getByTestId('station-notes').getByText('Duplicate').waitFor(NO_LIMIT);
    await page.screenshot({ path: join(SCREENSHOTS, 'station-03-done.png') });
    expect(await seriousViolations()).toEqual([]);

    expect(await tiles.filter({ hasText: SRCP }).first().innerText()).toContain('Done, unplug me');
    expect(await tiles.filter({ hasText: SRCP }).first().innerText()).toMatch(/the upload resumed at [1-9]\d*%/);
    expect(shift.devices.get(SRCP)!.faultStats.pulls).toBe(1);
    const notes = await page.getByTestId('station-notes').innerText();
    expect(notes).toContain(`Refused ${FOREIGN} on serial:${join(dir, 'pty', FOREIGN)}: ${FOREIGN} is not in the configuration`);
    expect(notes).toContain(`Duplicate ${EPC} on serial:${join(dir, 'pty')}`);
    expect(await page.getByTestId('station-count-done').innerText()).toBe('2');
    expect(await page.getByTestId('station-count-failed').innerText()).toBe('0');
    expect(await page.getByTestId('station-count-refused').innerText()).toBe('1');
    expect(await page.getByTestId('station-count-duplicate').innerText()).toBe('1');
    expect(await page.getByTestId('station-count-yield').innerText()).toBe('100%');
    // The tiles are reached by the keyboard too, each read by its serial number.
    await tabTo(new RegExp(`^${SRCP}`));
    expect(shift.devices.get(FOREIGN)!.state().firmwareVersion).toBe('1.0.0');

    const latest = await latestFirmwareByType(client, ['SRCP', 'EPC']);
    // A tile goes green once the confirmations are in the outbox, which sends them at once but on
    // its own: wait for the service to have them (the test's timeout bounds the wait).
    for (const serial of [SRCP, EPC]) {
      for (;;) {
        const record = (await client.devices.list({ serial, limit: 1 })).items[0]!;
        if (deviceSync(recordedReading(record), record, latest.get(record.deviceType)).state === 'in-sync') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(await page.getByTestId('station-count-failed').innerText()).toBe('0');
  });

  it('stops by keyboard and shows where the shift report is', { timeout: 120_000 }, async () => {
    await page.getByRole('heading', { level: 1, name: 'Station' }).focus();
    await tabTo(/^Stop station$/);
    await page.keyboard.press('Enter');
    const report = page.getByTestId('station-report');
    await report.waitFor(NO_LIMIT);
    const rows = parse(await readFile(await report.innerText(), 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.serialNumber, r.result]).sort()).toEqual(
      [
        [EPC, 'done'],
        [EPC, 'duplicate'],
        [FOREIGN, 'refused'],
        [SRCP, 'done'],
      ].sort(),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'station-04-stopped.png') });
    expect(await seriousViolations()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
