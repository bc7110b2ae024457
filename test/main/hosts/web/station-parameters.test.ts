import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { LEDGER_FILE } from '../../../../main/engine/ledger/ledger';
import { parseLedgerText, type LedgerEntry } from '../../../../domain/ledger';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import type { ShiftRun } from '../../../../simulator/shift-plan';
import { driftedShift } from './helpers/drifted-shift';
import { tabTo } from './helpers/keyboard';
import { deviceKeys, NO_LIMIT, seriousViolations, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * Issue 26 at the Station, in a real browser (web mode, Debian's chromium): the operator chooses
 * the configuration, reads each device's intended parameters and the configuration's parameter
 * checksum, and starts the shift by typing that checksum with their name, keyboard only; a wrong
 * one is refused. Then two simulated devices of the configuration are plugged in: one stores its
 * safety timeout differently from the file it applies (the simulator's --fault-param-drift), the
 * other runs what it was sent. The first fails and is kept apart, its tile saying so with what to
 * do; the second is done. The ledger holds the shift's confirmation naming the operator and the
 * checksum, the passing device's verification confirmed by the shift, and the failing one's
 * failed verification. axe-core clean; screenshots in test/e2e/screenshots/.
 */

const LOADER = demoConfigurations()[0]!.seeded;
const [SRCP, EPC] = LOADER.devices.map((d) => d.payload.serialNumber) as [string, string];
const OPERATOR = 'Ola Operator';
/** What the drifting device stores instead of the file's safety timeout. */
const DRIFTED_TIMEOUT_MS = 1024;

let world: WebModePage;
let core: Core;
let page: Page;
let shift: ShiftRun | undefined;
let startShift: () => ShiftRun;

beforeAll(async () => {
  world = await startWebModePage({
    name: 'station-parameters',
    devices: { ptyDir: 'pty', pollIntervalMs: 300, multicast: false },
    fullPageShots: true,
    prepare: async (setup) => {
      const keys = await deviceKeys(setup.workspace.serviceUrl);
      startShift = driftedShift({
        ptyDir: join(setup.dir, 'pty'),
        stateDir: join(setup.dir, 'devices'),
        keys,
        srcp: SRCP,
        epc: EPC,
        driftedTimeoutMs: DRIFTED_TIMEOUT_MS,
      });
      setup.stopOnClose(async () => {
        await shift?.stop();
      });
      await setup.core.session.useLocalWorkspace();
    },
  });
  ({ core, page } = world);
}, 240_000);

afterAll(async () => {
  await world?.close();
});

/** Every entry of the ledger files under the test's directory. */
async function ledgerEntries(): Promise<LedgerEntry[]> {
  const files = (await readdir(world.dir, { recursive: true })).filter((file) => file.endsWith(LEDGER_FILE));
  const texts = await Promise.all(files.map((file) => readFile(join(world.dir, file), 'utf8')));
  return texts.flatMap((text) => parseLedgerText(text)).flatMap((line) => ('entry' in line ? [line.entry] : []));
}

describe('the Station verifies every device against the parameters its operator confirmed', () => {
  it('starts the shift only with the configuration checksum typed, keyboard only', { timeout: 180_000 }, async () => {
    await page.getByTestId('who-role').waitFor(NO_LIMIT);
    await tabTo(page, /^Station$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Station' }).waitFor(NO_LIMIT);
    await tabTo(page, /^Configuration$/);
    // A closed select takes typed letters: the first option starting with them is chosen.
    await page.keyboard.type('Loader');
    const parameters = page.getByTestId('shift-parameters');
    await parameters.waitFor(NO_LIMIT);
    // Each device's intended values, in words and units, with its checksum; the configuration's under them.
    for (const serial of [SRCP, EPC]) {
      const table = parameters.locator(`table[data-serial="${serial}"]`);
      expect(await table.locator('caption').innerText()).toMatch(
        new RegExp(`^${serial} \\((SRCP|EPC)\\), checksum [0-9A-F]{8}$`),
      );
      // In the Workbench's order: a peer's role right after the list of peers.
      const keys = await table
        .locator('tr[data-key]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')));
      expect(keys[keys.indexOf('device.peers') + 1]).toMatch(/^peer\..+\.role$/);
      expect(
        (await table.locator('tr[data-key="safety.timeout"]').innerText()).split('\t').map((cell) => cell.trim()),
      ).toEqual(['Safety timeout', expect.stringMatching(/^\d+ ms$/)]);
    }
    const checksum = (await page.getByTestId('shift-checksum').innerText()).trim();
    expect(checksum).toMatch(/^[0-9A-F]{8}$/);
    await tabTo(page, /^Lanes$/);
    await page.keyboard.type('2');
    await tabTo(page, /^Firmware$/);
    await page.keyboard.type('Keep');
    expect(await seriousViolations(page)).toEqual([]);
    await world.shot('26-station-01-shift-parameters');

    await tabTo(page, /^Your name/);
    await page.keyboard.type(OPERATOR);
    await tabTo(page, /^Configuration checksum$/);
    await page.keyboard.type(checksum.slice(0, 7) + (checksum.endsWith('0') ? '1' : '0'));
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText("That is not this configuration's parameter checksum").waitFor(NO_LIMIT);
    expect(await seriousViolations(page)).toEqual([]);
    await world.shot('26-station-02-wrong-checksum-refused');
    expect((await core.invoke('station.view', {})).running).toBe(false);
    expect((await ledgerEntries()).filter((e) => e.action === 'station-shift')).toEqual([]);

    await page.keyboard.press('Control+A');
    await page.keyboard.type(checksum.toLowerCase());
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Stop station' }).waitFor(NO_LIMIT);
    expect(await page.getByTestId('station-shift').innerText()).toContain(
      `Parameters confirmed for this shift by ${OPERATOR}`,
    );
    expect(await page.getByTestId('station-shift').innerText()).toContain(`configuration checksum ${checksum}`);
    const [shiftEntry, ...more] = (await ledgerEntries()).filter((e) => e.action === 'station-shift');
    expect(more).toEqual([]);
    expect(shiftEntry!.facts).toMatchObject({
      operator: OPERATOR,
      confirmedBy: OPERATOR,
      checksumShort: checksum,
      configurationName: LOADER.configuration.name,
      devices: 2,
    });
  });

  it(
    'fails and keeps apart the device whose safety timeout differs; the other is done; the ledger records both',
    { timeout: 300_000 },
    async () => {
      shift = startShift();
      const tile = (serial: string) => page.getByTestId('station-tile').filter({ hasText: serial });
      await tile(SRCP).and(page.locator('[data-state="done"]')).waitFor(NO_LIMIT);
      await tile(EPC).and(page.locator('[data-state="failed"]')).waitFor(NO_LIMIT);
      const failed = await tile(EPC).innerText();
      expect(failed).toContain('Failed: parameters differ, keep it apart');
      expect(failed).toMatch(
        new RegExp(
          `The device took its configuration file but does not run its parameters: Safety timeout \\d+ ms intended, ${DRIFTED_TIMEOUT_MS} ms running\\.`,
        ),
      );
      expect(failed).toContain(
        'Keep it apart: it does not run the parameters of its configuration and must not go into service.',
      );
      expect(await tile(SRCP).innerText()).toContain('Done, unplug me');
      expect(await page.getByTestId('station-count-failed').innerText()).toBe('1');
      expect(await page.getByTestId('station-count-done').innerText()).toBe('1');
      expect(await seriousViolations(page)).toEqual([]);
      await world.shot('26-station-03-drifted-device-kept-apart');

      const entries = await ledgerEntries();
      const shiftChecksum = entries.find((e) => e.action === 'station-shift')!.facts.checksum;
      const verification = (serial: string) =>
        entries.filter((e) => e.action === 'parameter-verification' && e.serialNumber === serial);
      expect(verification(SRCP)).toHaveLength(1);
      expect(verification(SRCP)[0]!.outcome).toBe('success');
      expect(verification(SRCP)[0]!.facts).toMatchObject({
        person: OPERATOR,
        confirmedBy: OPERATOR,
        confirmedHow: 'by shift',
        shiftChecksum,
        match: true,
      });
      expect(verification(EPC)).toHaveLength(1);
      expect(verification(EPC)[0]!.outcome).toBe('failure');
      expect(verification(EPC)[0]!.facts).toMatchObject({
        person: OPERATOR,
        confirmedBy: null,
        shiftChecksum,
        match: false,
      });
      expect(String(verification(EPC)[0]!.facts['p:safety.timeout'])).toMatch(
        new RegExp(`^\\d+ → ${DRIFTED_TIMEOUT_MS}$`),
      );
      expect(verification(EPC)[0]!.error).toContain('safety.timeout');

      await page.getByRole('heading', { level: 1, name: 'Station' }).focus();
      await tabTo(page, /^Stop station$/);
      await page.keyboard.press('Enter');
      await page.getByTestId('station-report').waitFor(NO_LIMIT);
      expect(world.pageErrors).toEqual([]);
    },
  );
});
