import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AxeBuilder from '@axe-core/playwright';
import { parse } from 'csv-parse/sync';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { LogLine } from '../../../../contract/index';
import { createCore, FileSecretStore, type Core } from '../../../../main/core';
import { deviceSync, latestFirmwareByType, recordedReading } from '../../../../main/engine/jobs/device-sync';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import { trustedReleaseKeys } from '../../../../main/hosts/web/simulated-workbench';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { parseShiftPlan, runShift, type ShiftRun } from '../../../../simulator/shift-plan';
import { builtApp } from '../../../fixtures/built-app';
import { lookUntil } from './helpers/looks';
import { tabTo as tabToOn } from './helpers/keyboard';

/**
 * The Station screen in a real browser (web mode, Debian's chromium), driven by the keyboard alone:
 * a simulated shift on the demo configuration "Loader 7 remote (ISM)" (its seeded devices), one
 * of them unplugged during its firmware transfer, a device of no part of it and a copy of a serial
 * (plugged in beside the real device, and again once that one is done).
 * Every planned device ends done and in sync by the service, the foreign one is refused and the
 * copy flagged on the screen, the screen passes axe-core, and stopping shows the shift report and
 * the commissioning report. The organization holds more configurations than one page offers: the
 * one the station is for is found by paging and by name.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/**
 * Every wait is a bounded number of looks with a pause between them: a wait that runs out throws
 * what it last saw and the state of the station, the page, the service and the devices, so a
 * failure on a loaded CI machine says where things stood. Looks × pause stays well inside the
 * test's timeout (a slow look makes a wait longer, never endless).
 */
const LOOKS = 400;
const LOOK_PAUSE_MS = 250;
/** Log lines kept for the state dump. */
const LOG_TAIL = 60;

const LOADER = demoConfigurations()[0]!.seeded;
const [SRCP, EPC] = LOADER.devices.map((d) => d.payload.serialNumber) as [string, string];
const FOREIGN = 'EPC000101';
/** Configurations made besides the demo's, sorted by name before them: the station's is not on the first page of 30. */
const EXTRA_CONFIGURATIONS = Array.from({ length: 40 }, (_, i) => `Bay ${String(i + 1).padStart(3, '0')}`);

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
const logTail: LogLine[] = [];

async function seriousViolations(): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Presses Tab until the focus is on a control whose text matches: how a keyboard user gets there. */
const tabTo = (text: RegExp) => tabToOn(page, text);

/** One part of the state dump; a part that cannot be read says why instead. */
async function part(name: string, read: () => Promise<unknown>): Promise<string> {
  try {
    const value = await read();
    return `${name}: ${typeof value === 'string' ? value : JSON.stringify(value, null, 1)}`;
  } catch (error) {
    return `${name}: (could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/** Where things stood: the tiles and notes as the page shows them, the station's own view, the service's records and their sync, the devices, the outbox and the log's tail. */
async function stateOfThings(): Promise<string> {
  const latest = await latestFirmwareByType(client, ['SRCP', 'EPC']).catch(() => new Map<string, string | null>());
  const parts = await Promise.all([
    part('tiles on the page', () => page.getByTestId('station-tile').allInnerTexts()),
    part('notes on the page', () => page.getByTestId('station-notes').allInnerTexts()),
    part('station view', async () => {
      const view = await core.invoke('station.view', {});
      return {
        running: view.running,
        counts: view.counts,
        tiles: view.tiles.map((t) => ({
          serial: t.serialNumber,
          state: t.state,
          present: t.present,
          link: t.link,
          step: t.step,
          phase: t.phase,
          headline: t.headline,
          detail: t.detail,
        })),
        notes: view.notes.map((n) => `${n.kind} ${n.serialNumber} ${n.link}`),
      };
    }),
    ...[SRCP, EPC].map((serial) =>
      part(`service record of ${serial}`, async () => {
        const record = (
          await client.devices.list({ serial, limit: 1 }, { retry: false, signal: AbortSignal.timeout(5000) })
        ).items[0];
        if (!record) return 'none';
        const sync = deviceSync(recordedReading(record), record, latest.get(record.deviceType));
        return {
          firmwareVersion: record.firmwareVersion,
          deployedSyncId: record.deployedSyncId,
          currentSyncId: record.currentSyncId,
          lastFirmwareApply: record.lastFirmwareApply,
          lastConfigurationApply: record.lastConfigurationApply,
          sync: sync.text,
        };
      }),
    ),
    part('simulated devices', async () =>
      Object.fromEntries(
        [...(shift?.devices ?? new Map())].map(([id, device]) => [
          id,
          {
            firmwareVersion: device.state().firmwareVersion,
            syncId: device.state().config?.syncId ?? null,
            pulls: device.faultStats.pulls,
          },
        ]),
      ),
    ),
    part('outbox', async () => (await core.invoke('outbox.get', {})).entries),
    part('log', async () =>
      logTail.map((line) => `${line.at.slice(11, 23)} ${line.level} ${line.source}: ${line.message}`).join('\n'),
    ),
  ]);
  return parts.join('\n');
}

/**
 * Looks until `ok` holds of what `look` returns, at most `looks` times; then throws what it last
 * saw and where things stood. A look that throws counts as one and is said.
 */
async function until<T>(what: string, look: () => Promise<T>, ok: (seen: T) => boolean, looks = LOOKS): Promise<T> {
  return lookUntil(what, look, ok, { looks, pauseMs: LOOK_PAUSE_MS, whereThingsStood: stateOfThings });
}

/** Until the locator matches at least one element of the page. */
async function untilShown(what: string, locator: ReturnType<Page['locator']>, looks = LOOKS): Promise<void> {
  await until(
    what,
    () => locator.count(),
    (n) => n > 0,
    looks,
  );
}

/** The shift plan played to its end (every plug and unplug done). */
let shiftPlayed = false;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-e2e-station-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  await builtApp();
  const ptyDir = join(dir, 'pty');
  core = await createCore({
    dataDir: join(dir, 'app'),
    secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
    host: 'web',
    resume: false,
    onLogLine: (line) => {
      logTail.push(line);
      if (logTail.length > LOG_TAIL) logTail.shift();
    },
    // Only the shift's own simulated devices: no USB ports, no other simulator's ptys or IP devices.
    deviceList: {
      serial: { portGlobs: [join(ptyDir, '*')], listPorts: async () => [] },
      multicast: false,
      pollIntervalMs: 300,
    },
  });
  const workspace = await core.session.ensureWorkspace();
  client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: 'demo', apiKey: workspace.apiKey });
  for (const name of EXTRA_CONFIGURATIONS) await client.configurations.create({ name });
  const signing = (await (await fetch(`${workspace.serviceUrl}/v1/config-file-signing-key`)).json()) as {
    data: { publicKeyPem: string };
  };
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
  server = await startWebServer({
    core,
    rendererDir: fileURLToPath(new URL('../../../../dist/renderer/', import.meta.url)),
  });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  // An action's own wait for its element (30 s by default) is too short on a loaded machine: each
  // element is first looked for a bounded number of times, then acted on.
  page.setDefaultTimeout(120_000);
  await page.goto(server.openUrl);
  await untilShown('the sign-in form', page.getByLabel('Service URL', { exact: true }));
  await page.getByLabel('Service URL', { exact: true }).fill(workspace.serviceUrl);
  await page.getByLabel('Organization', { exact: true }).fill('demo');
  await page.getByLabel('API key', { exact: true }).fill(workspace.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await untilShown('the signed-in page', page.getByTestId('who-role'));
  startShift = () => runShift({ ...plan, stateDir: join(dir, 'devices'), publicKeyPem: signing.data.publicKeyPem });
}, 240_000);

afterAll(async () => {
  await shift?.stop();
  await browser?.close();
  await server?.close();
  await core?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the Station screen', () => {
  // A test that fails (its own timeout too) prints where things stood.
  const dumpOnFailure = () =>
    onTestFailed(async () => console.error(`Station state at the failure:\n${await stateOfThings()}`));

  it('starts a station for a configuration by keyboard alone', { timeout: 120_000 }, async () => {
    dumpOnFailure();
    await tabTo(/^Station$/);
    await page.keyboard.press('Enter');
    await untilShown('the Station heading', page.getByRole('heading', { level: 1, name: 'Station' }));
    const configuration = page.getByLabel('Configuration', { exact: true });
    const option = (name: string) =>
      configuration.locator('option', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')} \\(`) });
    // The first page: 30 configurations by name, the station's not among them.
    await untilShown('the first page of configurations', option(EXTRA_CONFIGURATIONS[29]!));
    expect(await option(LOADER.configuration.name).count()).toBe(0);
    expect(await configuration.locator('option').first().innerText()).toBe(
      `Choose one of ${EXTRA_CONFIGURATIONS.length + demoConfigurations().length}…`,
    );
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'station-01-setup.png') });
    // The next page holds the rest.
    await tabTo(/^Next/);
    await page.keyboard.press('Enter');
    await untilShown('the second page of configurations', option(LOADER.configuration.name));
    expect(await option(EXTRA_CONFIGURATIONS[30]!).count()).toBe(1);
    expect(await option(EXTRA_CONFIGURATIONS[0]!).count()).toBe(0);
    // Or it is found by name: the service answers with those whose name contains the text.
    await page.getByRole('heading', { level: 1, name: 'Station' }).focus();
    await tabTo(/^Find a configuration$/);
    await page.keyboard.type('loader 7');
    await until(
      'only the matching configuration offered',
      () => configuration.locator('option').allInnerTexts(),
      (texts) => texts.length === 2 && texts[1]!.startsWith(LOADER.configuration.name),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'station-01b-found.png') });
    expect(await seriousViolations()).toEqual([]);
    await tabTo(/^Configuration$/);
    // A closed select takes typed letters: the first option starting with them is chosen.
    await page.keyboard.type('Loader');
    await tabTo(/^Lanes$/);
    await page.keyboard.type('2');
    // The operator reads the configuration's parameter checksum under its table and types it, with their name.
    await untilShown('the parameters of the configuration', page.getByTestId('shift-checksum'));
    const checksum = (await page.getByTestId('shift-checksum').innerText()).trim();
    await tabTo(/^Your name/);
    await page.keyboard.type('Ola Operator');
    await tabTo(/^Configuration checksum$/);
    await page.keyboard.type(checksum);
    await tabTo(/^Start station$/);
    await page.keyboard.press('Enter');
    await untilShown('the Stop station button', page.getByRole('button', { name: 'Stop station' }));
    await untilShown(
      'the running station line',
      page.getByText(`Provisioning “${LOADER.configuration.name}” (2 devices) on 2 lanes`),
    );
  });

  it(
    'provisions the shift: tiles go green, the foreign device is refused and the copied serial flagged',
    { timeout: 300_000 },
    async () => {
      dumpOnFailure();
      shift = startShift();
      void shift.finished.then(() => {
        shiftPlayed = true;
      });
      const tiles = page.getByTestId('station-tile');
      await untilShown('a working tile', page.locator('[data-testid="station-tile"][data-state="working"]'));
      await page.screenshot({ path: join(SCREENSHOTS, 'station-02-working.png') });
      expect(await seriousViolations()).toEqual([]);
      await until(
        'the shift plan played to its end',
        async () => shiftPlayed,
        (played) => played,
      );
      for (const serial of [SRCP, EPC])
        await untilShown(
          `${serial}'s tile green`,
          tiles.filter({ hasText: serial }).and(page.locator('[data-state="done"]')),
        );
      await untilShown(`the refused ${FOREIGN}`, page.getByTestId('station-notes').getByText(FOREIGN, { exact: true }));
      await untilShown('the duplicate note', page.getByTestId('station-notes').getByText('Duplicate'));
      await page.screenshot({ path: join(SCREENSHOTS, 'station-03-done.png') });
      expect(await seriousViolations()).toEqual([]);

      expect(await tiles.filter({ hasText: SRCP }).first().innerText()).toContain('Done, unplug me');
      expect(await tiles.filter({ hasText: SRCP }).first().innerText()).toMatch(/the upload resumed at [1-9]\d*%/);
      expect(shift.devices.get(SRCP)!.faultStats.pulls).toBe(1);
      const notes = await page.getByTestId('station-notes').innerText();
      expect(notes).toContain(
        `Refused ${FOREIGN} on serial:${join(dir, 'pty', FOREIGN)}: ${FOREIGN} is not in the configuration`,
      );
      expect(notes).toContain(`Duplicate ${EPC} on serial:${join(dir, 'pty')}`);
      expect(await page.getByTestId('station-count-done').innerText()).toBe('2');
      expect(await page.getByTestId('station-count-failed').innerText()).toBe('0');
      expect(await page.getByTestId('station-count-refused').innerText()).toBe('1');
      expect(await page.getByTestId('station-count-duplicate').innerText()).toBe('1');
      expect(await page.getByTestId('station-count-yield').innerText()).toBe('100%');
      // The tiles are reached by the keyboard too, each read by its serial number.
      await tabTo(new RegExp(`^${SRCP}`));
      expect(shift.devices.get(FOREIGN)!.state().firmwareVersion).toBe('1.0.0');

      // The copy once more, now that the device whose serial it carries is done: flagged again, and
      // what it runs (the old firmware, no configuration) is not confirmed to the service as the
      // real device's (it would make the provisioned device look behind).
      const copy = shift.devices.get('copy')!;
      const copyLink = (await core.invoke('station.view', {})).notes.find((n) => n.kind === 'duplicate')!.link;
      await copy.unplug();
      await until(
        'the copy gone from the device list',
        async () => (await core.invoke('workbench.devices', {})).map((d) => d.linkId),
        (links) => !links.includes(copyLink),
      );
      await copy.plug();
      await until(
        'the copy flagged again',
        () => page.getByTestId('station-count-duplicate').innerText(),
        (text) => text === '2',
      );
      await until(
        'the outbox empty',
        async () => (await core.invoke('outbox.get', {})).pendingCount,
        (pending) => pending === 0,
      );

      // A tile goes green once the confirmations are in the outbox, which sends them at once but on
      // its own: look until the service has them. Each look asks for the latest firmware too, so a
      // question the loaded service did not answer once ("latest unknown") is asked again.
      for (const serial of [SRCP, EPC]) {
        await until(
          `the service to record ${serial} in sync`,
          async () => {
            const latest = await latestFirmwareByType(client, ['SRCP', 'EPC']);
            const record = (await client.devices.list({ serial, limit: 1 })).items[0]!;
            const sync = deviceSync(recordedReading(record), record, latest.get(record.deviceType));
            return { state: sync.state, text: sync.text };
          },
          (sync) => sync.state === 'in-sync',
        );
      }
      expect(await page.getByTestId('station-count-failed').innerText()).toBe('0');
    },
  );

  it('stops by keyboard and shows where the shift report is', { timeout: 120_000 }, async () => {
    dumpOnFailure();
    await page.getByRole('heading', { level: 1, name: 'Station' }).focus();
    await tabTo(/^Stop station$/);
    await page.keyboard.press('Enter');
    const report = page.getByTestId('station-report');
    await untilShown('the shift report', report);
    const rows = parse(await readFile(await report.innerText(), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows.map((r) => [r.serialNumber, r.result]).sort()).toEqual(
      [
        [EPC, 'done'],
        [EPC, 'duplicate'],
        [EPC, 'duplicate'],
        [FOREIGN, 'refused'],
        [SRCP, 'done'],
      ].sort(),
    );
    // Beside it, the commissioning report of the configuration, read back as a person would.
    const commissioning = await page.getByTestId('station-commissioning-report').innerText();
    expect(commissioning).toBe((await report.innerText()).replace(/\.csv$/, '-commissioning.pdf'));
    const { stdout: text } = await promisify(execFile)('pdftotext', ['-layout', commissioning, '-']);
    for (const serial of [SRCP, EPC]) {
      expect(text).toContain(serial);
      const record = (await client.devices.list({ serial, limit: 1 })).items[0]!;
      expect(record.deployedSyncId).not.toBeNull();
      expect(text.replace(/\s+/g, '')).toContain(record.deployedSyncId);
    }
    expect(text).not.toContain(FOREIGN);
    await page.screenshot({ path: join(SCREENSHOTS, 'station-04-stopped.png') });
    expect(await seriousViolations()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
