import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Core } from '../../../../main/core';
import { deviceSync, latestFirmwareByType, recordedReading } from '../../../../main/engine/jobs/device-sync';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { startSimulatedDevice, type SimulatedDevice } from '../../../../simulator';
import {
  deviceKeys,
  goTo,
  NO_LIMIT,
  SCREENSHOTS,
  seriousViolations,
  startWebModePage,
  type WebModePage,
} from './helpers/web-mode-page';
import { lookUntil } from './helpers/looks';

/**
 * Issue 24 in a real browser (web mode, Debian's chromium): one device of each protocol side by
 * side on the same computer. The demo configuration "Loader 7 remote (ISM)" holds an SRC Pro and
 * an EPC; here the SRC Pro speaks the vendor's protocol (plain SLIP on a pty, as a FORT SRC Pro
 * in the field) and the EPC ours. The Workbench lists both with the protocol each speaks, and
 * "Apply configuration" on both applies each its file (the vendor's settings read back value by
 * value); then a Station shift on the same configuration installs the latest firmware on both and
 * ends with both done and in sync by the service. axe-core clean; screenshots go to
 * test/e2e/screenshots/ (24-…).
 */

const LOADER = demoConfigurations()[0]!.seeded;
const [SRCP, EPC] = LOADER.devices.map((d) => d.payload.serialNumber) as [string, string];
const PTY_DIR = join('sim', 'pty');
/** Bounded looks for what the page shows by itself, with a pause between: a look that runs out says what it last saw. */
const LOOKS = 600;
const LOOK_PAUSE_MS = 250;

let world: WebModePage;
let core: Core;
let page: Page;
let client: ServiceClient;
const devices = new Map<string, SimulatedDevice>();

async function until<T>(what: string, look: () => Promise<T>, ok: (seen: T) => boolean): Promise<T> {
  return lookUntil(what, look, ok, { looks: LOOKS, pauseMs: LOOK_PAUSE_MS });
}

/** How the service judges a device now (the words device list and the Devices screen use). */
async function serviceSync(
  serialNumber: string,
): Promise<{ state: string; text: string; deployedSyncId: string | null }> {
  const latest = await latestFirmwareByType(client, ['SRCP', 'EPC']);
  const record = (await client.devices.list({ serial: serialNumber, limit: 1 })).items[0]!;
  const sync = deviceSync(recordedReading(record), record, latest.get(record.deviceType));
  return { state: sync.state, text: sync.text, deployedSyncId: record.deployedSyncId };
}

/** Where things stood, for a failure: the page's rows or tiles and the devices' own memory. */
async function stateOfThings(): Promise<string> {
  const rows = await page
    .locator('tbody tr[data-serial]')
    .allInnerTexts()
    .catch(() => []);
  const tiles = await page
    .getByTestId('station-tile')
    .allInnerTexts()
    .catch(() => []);
  const memory = [...devices].map(
    ([serial, d]) =>
      `${serial}: firmware ${d.state().firmwareVersion}, syncId ${d.vendorState?.().config?.syncId ?? d.state().config?.syncId ?? 'none'}`,
  );
  return [
    `rows: ${JSON.stringify(rows)}`,
    `tiles: ${JSON.stringify(tiles)}`,
    ...memory,
    `page errors: ${JSON.stringify(world.pageErrors)}`,
  ].join('\n');
}

beforeAll(async () => {
  world = await startWebModePage({
    name: 'vendor-side-by-side',
    devices: { ptyDir: PTY_DIR, pollIntervalMs: 300, multicast: false },
    fullPageShots: true,
    prepare: async (setup) => {
      const { workspace } = setup;
      setup.stopOnClose(async () => {
        await Promise.allSettled([...devices.values()].map((d) => d.stop()));
      });
      client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
      const keys = await deviceKeys(workspace.serviceUrl);
      const common = {
        link: 'pty' as const,
        ptyDir: join(setup.dir, PTY_DIR),
        firmwareVersion: '1.0.0',
        baudRate: 921600,
        rebootMs: 150,
        applyMs: 50,
        ...keys,
      };
      devices.set(
        SRCP,
        await startSimulatedDevice({
          ...common,
          protocol: 'vendor',
          deviceType: 'SRCP',
          serialNumber: SRCP,
          stateDir: join(setup.dir, 'sim', 'devices', SRCP),
        }),
      );
      devices.set(
        EPC,
        await startSimulatedDevice({
          ...common,
          deviceType: 'EPC',
          serialNumber: EPC,
          stateDir: join(setup.dir, 'sim', 'devices', EPC),
        }),
      );
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ core, page } = world);
  page.setDefaultTimeout(0);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

describe('one device of each protocol side by side', () => {
  const dumpOnFailure = () => onTestFailed(async () => console.error(`Where things stood:\n${await stateOfThings()}`));

  it(
    'the Workbench lists both with the protocol each speaks and applies the configuration to both',
    { timeout: 300_000 },
    async () => {
      dumpOnFailure();
      await goTo(page, 'Workbench');
      const vendorRow = page.locator(`tr[data-serial="${SRCP}"]`);
      const ourRow = page.locator(`tr[data-serial="${EPC}"]`);
      await vendorRow.waitFor(NO_LIMIT);
      await ourRow.waitFor(NO_LIMIT);
      expect(await vendorRow.getAttribute('data-protocol')).toBe('vendor');
      expect(await ourRow.getAttribute('data-protocol')).toBe('provisioner');
      // The vendor's device says so on its row, in words; ours is the rule and carries no mark.
      expect(await vendorRow.getByTestId('workbench-protocol').innerText()).toContain('FORT protocol');
      expect(await ourRow.getByTestId('workbench-protocol').count()).toBe(0);
      // Each is read alike: its model, its firmware, what it needs.
      expect(await vendorRow.innerText()).toContain('SRC Pro');
      for (const row of [vendorRow, ourRow])
        expect(await row.getByTestId('workbench-firmware').innerText()).toBe('1.0.0');
      expect(await seriousViolations(page)).toEqual([]);
      await world.shot('24-01-workbench-both-protocols');

      await page.getByLabel(`Select ${SRCP}`).check();
      await page.getByLabel(`Select ${EPC}`).check();
      await page.getByRole('button', { name: 'Apply configuration', exact: true }).click();
      // An apply offers the function test of the configuration: not now, this is the bench.
      const notNow = async () => {
        const dialog = page.getByRole('dialog', { name: /Function test of/ });
        if ((await dialog.count()) > 0) await dialog.getByRole('button', { name: 'Not now' }).click();
      };
      for (const [serial, row] of [
        [SRCP, vendorRow],
        [EPC, ourRow],
      ] as const) {
        const progress = await until(
          `${serial}'s configuration job to end`,
          async () => {
            await notNow();
            return (await row.locator('td').nth(5).innerText()).trim();
          },
          (text) => /^(Done|Failed|Cancelled)/.test(text),
        );
        expect(progress).toMatch(/^Done: configuration applied/);
      }
      // The vendor device's timeline shows the same steps as ours: the file sent, its settings read back, the service told.
      await notNow();
      await vendorRow.getByRole('button', { name: `Timeline of ${SRCP}` }).click();
      const timeline = page.getByRole('region', { name: `Timeline of ${SRCP}` });
      await timeline.waitFor(NO_LIMIT);
      const steps = await timeline
        .locator('li')
        .first()
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-step')}:${r.getAttribute('data-status')}`));
      expect(steps).toContain('configuration:done');
      expect(steps).toContain('read-back:done');
      expect(steps).toContain('confirmation:done');
      await notNow();
      expect(await seriousViolations(page)).toEqual([]);
      await world.shot('24-02-workbench-configuration-applied');
      // The parameters each device runs, beside what its configuration intends (issue 26), for the vendor's device too.
      for (const serial of [SRCP, EPC]) {
        const section = page.getByRole('region', { name: new RegExp(`^Parameters on ${serial}: `) });
        await section.waitFor(NO_LIMIT);
        expect(await section.locator('.param-table__row--bad').count()).toBe(0);
        if (serial === SRCP) {
          // The vendor's device is compared on what it reports in our terms, not only its serial number.
          const cells = async (key: string) =>
            (await section.locator(`tr[data-key="${key}"]`).innerText()).split('\t').map((cell) => cell.trim());
          expect(await cells('ism.channel')).toEqual(['ISM channel', '5', '5']);
          expect(await cells('ism.txPower')).toEqual(['ISM transmit power', 'High', 'High']);
          expect(await cells('ism.networkId')).toEqual(['ISM network id', '12', '12']);
        }
        await section.screenshot({
          path: join(SCREENSHOTS, `24-02${serial === SRCP ? 'a' : 'b'}-parameters-${serial}.png`),
        });
      }

      // Each holds the file the service made for it, and the service recorded it: the vendor's device as ours.
      for (const serial of [SRCP, EPC]) {
        const sync = await until(
          `${serial}'s deployed syncId at the service`,
          () => serviceSync(serial),
          (s) => s.deployedSyncId !== null,
        );
        const held =
          serial === SRCP ? devices.get(SRCP)!.vendorState!().config?.syncId : devices.get(EPC)!.state().config?.syncId;
        expect(held?.toLowerCase()).toBe(sync.deployedSyncId!.toLowerCase());
      }
      expect(world.pageErrors).toEqual([]);
    },
  );

  it(
    'a Station shift on the configuration provisions both, firmware and configuration, and both end done and in sync',
    { timeout: 400_000 },
    async () => {
      dumpOnFailure();
      // The line's devices come to the station as on a shift: unplugged from the bench, plugged in once it runs.
      for (const device of devices.values()) await device.unplug();
      await until(
        'both gone from the device list',
        async () => (await core.invoke('workbench.devices', {})).map((d) => `${d.serialNumber} on ${d.linkId}`),
        (left) => left.length === 0,
      );
      await goTo(page, 'Station');
      await page.getByRole('heading', { level: 1, name: 'Station' }).waitFor(NO_LIMIT);
      await page.getByLabel('Find a configuration', { exact: true }).fill('Loader 7');
      const configuration = page.getByLabel('Configuration', { exact: true });
      await until(
        'the configuration offered',
        () => configuration.locator('option').allInnerTexts(),
        (texts) => texts.some((t) => t.startsWith(LOADER.configuration.name)),
      );
      await configuration.selectOption(LOADER.configuration.name);
      await page.getByLabel('Lanes', { exact: true }).selectOption('2');
      await startShift();
      await page.getByRole('button', { name: 'Stop station' }).waitFor(NO_LIMIT);

      for (const device of devices.values()) await device.plug();

      const tiles = page.getByTestId('station-tile');
      await until(
        'both tiles shown, one at work',
        async () => ({
          tiles: await tiles.count(),
          working: await page.locator('[data-testid="station-tile"][data-state="working"]').count(),
        }),
        (seen) => seen.tiles === 2 && seen.working > 0,
      );
      await world.shot('24-03-station-working');
      expect(await seriousViolations(page)).toEqual([]);
      for (const serial of [SRCP, EPC]) {
        await until(
          `${serial}'s tile green`,
          async () => ({
            state: await tiles.filter({ hasText: serial }).first().getAttribute('data-state'),
            text: await tiles.filter({ hasText: serial }).first().innerText(),
          }),
          (tile) => tile.state === 'done' || tile.state === 'failed',
        );
        expect(
          await tiles.filter({ hasText: serial }).first().getAttribute('data-state'),
          await tiles.filter({ hasText: serial }).first().innerText(),
        ).toBe('done');
      }
      // Each tile says which protocol its device speaks, as the Workbench row does.
      expect(await tiles.filter({ hasText: SRCP }).first().locator('.station-tile__serial').innerText()).toContain(
        'FORT protocol',
      );
      expect(await tiles.filter({ hasText: EPC }).first().locator('.station-tile__serial').innerText()).not.toContain(
        'FORT protocol',
      );
      expect(await page.getByTestId('station-count-done').innerText()).toBe('2');
      expect(await page.getByTestId('station-count-failed').innerText()).toBe('0');
      expect(await seriousViolations(page)).toEqual([]);
      await world.shot('24-04-station-done');

      // Both run the latest firmware, the vendor's device by its fs transfer, and the service has both in sync.
      for (const serial of [SRCP, EPC]) expect(devices.get(serial)!.state().firmwareVersion).toBe('1.1.0');
      for (const serial of [SRCP, EPC])
        await until(
          `the service to record ${serial} in sync`,
          () => serviceSync(serial),
          (s) => s.state === 'in-sync',
        );

      await page.getByRole('button', { name: 'Stop station' }).click();
      await page.getByTestId('station-report').waitFor(NO_LIMIT);
      expect(world.pageErrors).toEqual([]);
    },
  );
});

/**
 * Starts the shift as the operator does: with the configuration's parameter checksum typed when
 * the form asks for it (issue 26), read here from what the Station computes for the configuration.
 */
async function startShift(): Promise<void> {
  const checksumField = page.getByLabel(/checksum/i);
  if ((await checksumField.count()) > 0) {
    const parameters = await core.invoke('station.parameters', { configurationName: LOADER.configuration.name });
    await page
      .getByLabel(/your name|operator/i)
      .first()
      .fill('Dana Weber');
    await checksumField.first().fill(parameters.checksumShort);
  }
  await page.getByRole('button', { name: 'Start station' }).click();
}
