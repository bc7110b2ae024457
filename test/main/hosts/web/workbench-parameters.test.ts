import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../../main/core';
import { LEDGER_FILE } from '../../../../main/engine/ledger/ledger';
import { parseLedgerText, type LedgerEntry } from '../../../../domain/ledger';
import type { Page } from 'playwright-core';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../engine/jobs/helpers/flows';
import { startSimulatedDevice } from '../../../../simulator';
import { deviceKeys, goTo, NO_LIMIT, seriousViolations } from './helpers/web-mode-page';
import { startWorkbenchPage, WORKBENCH_DEVICES, type WorkbenchPage } from './helpers/workbench-page';

/**
 * Issue 26 in a real browser: after a configuration apply on a simulated EPC, the Workbench shows
 * the parameters the device runs beside what the configuration intends, with both short checksums;
 * the technician confirms with the keyboard only (no click): a wrong checksum is refused, the
 * device's own is taken, and the confirmation, naming the person, is in this workstation's ledger.
 * A device that stored its safety timeout wrongly (--fault-param-drift) shows its row in red, says
 * what to do and offers no confirmation; the ledger keeps the failure. axe-core clean; screenshots go to test/e2e/screenshots/.
 */

const SERIAL = 'EPC000101';

let world: WorkbenchPage;
let core: Core;
let page: Page;

beforeAll(async () => {
  world = await startWorkbenchPage({
    name: 'parameters',
    types: ['EPC'],
    prepare: (service) => buildFlow(service, epcToEpcOverEthernet).then(() => undefined),
  });
  ({ core, page } = world);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** Every `parameter-verification` entry in the ledger files under the test's directory. */
async function verificationRecords(): Promise<LedgerEntry[]> {
  const files = (await readdir(world.dir, { recursive: true })).filter((file) => file.endsWith(LEDGER_FILE));
  const texts = await Promise.all(files.map((file) => readFile(join(world.dir, file), 'utf8')));
  return texts
    .flatMap((text) => parseLedgerText(text))
    .flatMap((line) => ('entry' in line && line.entry.action === 'parameter-verification' ? [line.entry] : []));
}

/** A simulated EPC of the configuration plugged into the Workbench's ports, its safety parameters stored wrongly (`drift`). */
async function plugInDrifted(serialNumber: string, stateDirName: string, drift: string) {
  return startSimulatedDevice({
    deviceType: 'EPC',
    serialNumber,
    firmwareVersion: '1.1.0',
    link: 'pty',
    ptyDir: join(world.dir, WORKBENCH_DEVICES.ptyDir),
    stateDir: join(world.dir, stateDirName, serialNumber),
    ...(await deviceKeys(world.workspace.serviceUrl)),
    baudRate: 921600,
    rebootMs: 150,
    applyMs: 50,
    faults: { paramDrift: drift },
  });
}

describe('parameter verification in the Workbench', () => {
  it('shows the table after an apply and takes only the device checksum, typed with the keyboard', async () => {
    await goTo(page, 'Workbench');
    const [device] = (await core.invoke('workbench.devices', {})).filter((d) => d.serialNumber === SERIAL);
    expect(device).toBeDefined();
    await core.invoke('workbench.start', { action: 'configuration', linkIds: [device!.linkId] });

    const section = page.getByRole('region', { name: `Parameters on ${SERIAL}: match the configuration` });
    await section.waitFor(NO_LIMIT);
    const timeout = section.locator('tr[data-key="safety.timeout"]');
    expect((await timeout.innerText()).split('\t').map((cell) => cell.trim())).toEqual([
      'Safety timeout',
      '500 ms',
      '500 ms',
    ]);
    expect(await section.locator('.param-table__row--bad').count()).toBe(0);
    const running = (await section.getByTestId('checksum-running').innerText()).trim();
    expect(running).toMatch(/^[0-9A-F]{8}$/);
    expect((await section.getByTestId('checksum-intended').innerText()).trim()).toBe(running);
    // Nothing was confirmed by itself: no verification is in the ledger before a person types.
    expect(await verificationRecords()).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await world.shot('26-01-parameters-match');

    // Keyboard only: focus moves to the name field, and Tab and Enter do the rest.
    await section.getByLabel('Your name').focus();
    await page.keyboard.type('Dana Weber');
    await page.keyboard.press('Tab');
    const wrong = running.slice(0, 7) + (running.endsWith('0') ? '1' : '0');
    await page.keyboard.type(wrong);
    await page.keyboard.press('Enter');
    await section.getByRole('alert').getByText('not the checksum the device reports').waitFor(NO_LIMIT);
    expect(await seriousViolations(page)).toEqual([]);
    await world.shot('26-02-wrong-checksum-refused');
    expect(await verificationRecords()).toEqual([]);

    await page.keyboard.press('Control+A');
    await page.keyboard.type(running.toLowerCase());
    await page.keyboard.press('Enter');
    await section
      .getByTestId('parameters-confirmed')
      .getByText(`Confirmed by Dana Weber (checksum ${running})`)
      .waitFor(NO_LIMIT);
    expect(await seriousViolations(page)).toEqual([]);
    await world.shot('26-03-confirmed');

    const records = await verificationRecords();
    expect(records).toHaveLength(1);
    expect(records[0]!.serialNumber).toBe(SERIAL);
    expect(records[0]!.outcome).toBe('success');
    expect(records[0]!.facts.confirmedBy).toBe('Dana Weber');
    expect(records[0]!.facts.checksumShort).toBe(running);
    expect(records[0]!.facts['p:safety.timeout']).toBe('500 → 500');
    expect(world.pageErrors).toEqual([]);
  });

  it('shows a drifted safety timeout in red, says what to do and offers no confirmation', async () => {
    const DRIFTED = 'EPC000102';
    const device = await plugInDrifted(DRIFTED, 'drifted', 'safety.timeout=1024');
    try {
      await page.locator(`tr[data-serial="${DRIFTED}"]`).waitFor(NO_LIMIT);
      const [attached] = (await core.invoke('workbench.devices', {})).filter((d) => d.serialNumber === DRIFTED);
      await core.invoke('workbench.start', { action: 'configuration', linkIds: [attached!.linkId] });

      const section = page.getByRole('region', { name: `Parameters on ${DRIFTED}: differ from the configuration` });
      await section.waitFor(NO_LIMIT);
      const timeout = section.locator('tr[data-key="safety.timeout"]');
      expect(await timeout.getAttribute('class')).toContain('param-table__row--bad');
      expect((await timeout.innerText()).replace(/\s+/g, ' ')).toContain('Safety timeout 500 ms 1024 ms ✗ differs');
      expect(await section.getByRole('alert').innerText()).toMatch(
        /^What to do: .*Nothing can be confirmed while the parameters differ\.$/,
      );
      expect(await section.getByLabel(/Running checksum/).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      await timeout.scrollIntoViewIfNeeded();
      await world.shot('26-04-parameters-differ');

      const failed = (await verificationRecords()).filter((record) => record.serialNumber === DRIFTED);
      expect(failed.map((record) => [record.outcome, record.facts.confirmedBy])).toEqual([['failure', null]]);
      expect(failed[0]!.facts['p:safety.timeout']).toBe('500 → 1024');
    } finally {
      await device.stop();
    }
  });

  it('records a differing table as failed for a job started through the jobs channels too', async () => {
    // The configuration's second controller again, plugged in anew and drifted another way.
    const DRIFTED = 'EPC000102';
    const device = await plugInDrifted(DRIFTED, 'drifted-by-jobs', 'safety.timeout=2048');
    try {
      await page.locator(`tr[data-serial="${DRIFTED}"]`).waitFor(NO_LIMIT);
      const [attached] = (await core.invoke('workbench.devices', {})).filter((d) => d.serialNumber === DRIFTED);
      const [job] = await core.invoke('jobs.start', {
        requests: [
          { action: 'configuration', target: { kind: 'link', spec: attached!.linkId, serialNumber: DRIFTED } },
        ],
      });
      const finished = await core.invoke('jobs.wait', { jobId: job!.jobId });
      expect(finished.phase).toBe('failed');

      // The failure is written once the job has ended (after jobs.wait answers): look a bounded number of times.
      const ofThisJob = (record: LedgerEntry) =>
        record.serialNumber === DRIFTED && record.facts['p:safety.timeout'] === '500 → 2048';
      let failed: LedgerEntry[] = [];
      for (let look = 0; look < 100 && failed.length === 0; look++) {
        failed = (await verificationRecords()).filter(ofThisJob);
        if (failed.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(failed.map((record) => [record.outcome, record.facts.confirmedBy])).toEqual([['failure', null]]);
    } finally {
      await device.stop();
    }
  });
});
