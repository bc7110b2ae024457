import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSerial, registerBulkDevices } from '../../../fixtures/bulk-devices';
import { demoServicePerFile } from '../../../fixtures/test-core';
import { goTo, NO_LIMIT, signIn, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * The Devices screen with many devices (issue 30), in a real browser through web mode: an
 * organization of a few thousand devices on the demo service; the screen draws one page of rows,
 * however many devices there are, pages on to later ones, and a search by serial number shows the
 * device searched for. (The figures at a million devices: bench/devices-screen.ts.)
 */

const DEVICES = 3000;
/** The serial numbers' first letter: before every demo serial number, so the bulk devices come first. */
const LETTER = 'A';
const PAGE_SIZE = 15;

const demo = demoServicePerFile();
let world: WebModePage;
let page: Page;
let registered: number;

beforeAll(async () => {
  await registerBulkDevices(demo.service.db, 'demo', LETTER, DEVICES);
  const counted = await demo.service.db.query<{ n: string }>(`SELECT count(*) AS n FROM devices WHERE org_id = 'demo'`);
  registered = Number(counted.rows[0]!.n);
  world = await startWebModePage({ name: 'devices-many', devices: { pollIntervalMs: 60_000, multicast: false } });
  page = world.page;
  await signIn(page, { serviceUrl: demo.service.url, apiKey: demo.adminKey, orgId: 'demo' });
  await goTo(page, 'Devices');
}, 180_000);

afterAll(async () => {
  await world?.close();
});

/** The serial numbers of the rows the table draws now. */
async function rowSerials(): Promise<(string | null)[]> {
  const rows = page.locator('table tbody tr[data-serial]');
  const serials: (string | null)[] = [];
  for (let i = 0, n = await rows.count(); i < n; i++) serials.push(await rows.nth(i).getAttribute('data-serial'));
  return serials;
}
/** Waits until the table is not waiting for the service and its first row is `serial`. */
async function untilFirstRow(serial: string): Promise<void> {
  await page.locator(`table[aria-busy="false"] tbody tr:first-child[data-serial="${serial}"]`).waitFor(NO_LIMIT);
}

describe('the Devices screen with many devices', () => {
  it('draws one page of rows, not the organization', async () => {
    expect(registered).toBeGreaterThanOrEqual(DEVICES);
    await untilFirstRow(bulkSerial(LETTER, 1));
    expect(await rowSerials()).toEqual(Array.from({ length: PAGE_SIZE }, (_, i) => bulkSerial(LETTER, i + 1)));
    // Every row element of the page, the serial-number rows and any other: bounded by the page.
    expect(await page.locator('table tbody tr').count()).toBeLessThanOrEqual(PAGE_SIZE);
    const range = await page.locator('.pager__text').innerText();
    expect(range).toContain(`1–${PAGE_SIZE} of ${registered.toLocaleString('en-US')}`);
  });

  it('pages on to later devices, asking the service for each page', async () => {
    for (let page_ = 2; page_ <= 4; page_++) {
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: /Next/ }).click();
      await untilFirstRow(bulkSerial(LETTER, (page_ - 1) * PAGE_SIZE + 1));
    }
    expect(await rowSerials()).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, i) => bulkSerial(LETTER, 3 * PAGE_SIZE + i + 1)),
    );
    expect(await page.locator('table tbody tr').count()).toBeLessThanOrEqual(PAGE_SIZE);
  });

  it('shows the device whose serial number is typed in the search, from the first page', async () => {
    const wanted = bulkSerial(LETTER, 2718);
    await page.getByLabel('Search name, serial number, type', { exact: true }).pressSequentially(wanted, { delay: 20 });
    await untilFirstRow(wanted);
    expect(await rowSerials()).toEqual([wanted]);

    // A prefix of ten: the ten devices it starts, in order.
    await page
      .getByLabel('Search name, serial number, type', { exact: true })
      .fill(bulkSerial(LETTER, 2718).slice(0, -1));
    await untilFirstRow(bulkSerial(LETTER, 2710));
    expect(await rowSerials()).toEqual(Array.from({ length: 10 }, (_, i) => bulkSerial(LETTER, 2710 + i)));
    expect(world.pageErrors).toEqual([]);
  });
});
