import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WebServer } from '../../../../main/hosts/web/server';
import { goTo, NO_LIMIT, startWebModePage, submitSignIn, type WebModePage } from './helpers/web-mode-page';
import { startWorkspaceWorkbench, WORKBENCH_DEVICES } from './helpers/workbench-page';

/**
 * The app in a real browser against web mode: the embedded service (local workspace), simulated
 * SRCP and EPC devices on pty links, the renderer built by Vite. It walks the typical flow "SRCP
 * sender to EPC receiver over ISM radio" the way a technician would, and saves a screenshot of
 * every screen to test/e2e/screenshots/.
 */

/** A 2×2 PNG, for the device image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNgYPj/n4GB4T8DAwMDAwAhRgP/3m7NKAAAAABJRU5ErkJggg==',
  'base64',
);

let world: WebModePage;
let server: WebServer;
let page: Page;
let serviceUrl: string;
let apiKey: string;

async function shot(name: string): Promise<void> {
  await world.shot(name);
}

async function go(screen: string): Promise<void> {
  await goTo(page, screen);
}

beforeAll(async () => {
  // The local workspace's service is what the technician signs in to, by URL and key.
  world = await startWebModePage({
    name: 'web-mode',
    devices: WORKBENCH_DEVICES,
    prepare: (setup) => startWorkspaceWorkbench(setup, ['SRCP', 'EPC']),
  });
  ({ server, page } = world);
  ({ serviceUrl, apiKey } = world.workspace);
}, 180_000);

afterAll(async () => {
  if (process.env.E2E_DUMP_LOG && world)
    console.log(
      world.core.log
        .recent(300)
        .map((l) => `${l.at} ${l.level} ${l.source}: ${l.message}`)
        .join('\n'),
    );
  await world?.close();
});

describe('web mode in a real browser', () => {
  it('keeps the token out of the address bar and refuses pages without it', async () => {
    expect(page.url()).not.toContain('token');
    const socketUrl = `ws://127.0.0.1:${server.port}/contract`;
    // Another site's page, even with the token: refused before the upgrade.
    const foreign = new WebSocket(`${socketUrl}?token=${server.token}`, { origin: 'http://evil.example' });
    await expect(
      new Promise((resolve) => foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode))),
    ).resolves.toBe(403);
    // Our origin without this run's token: closed with 4401 so the page stops retrying.
    const stale = new WebSocket(`${socketUrl}?token=stale`, { origin: server.origin });
    await expect(new Promise((resolve) => stale.on('close', (code) => resolve(code)))).resolves.toBe(4401);
  });

  it('signs in with a service URL, organization and API key, refusing a wrong key first', async () => {
    await page.getByLabel('Service URL', { exact: true }).waitFor(NO_LIMIT);
    await shot('01-sign-in');
    await submitSignIn(page, { serviceUrl, apiKey: 'not-the-key-0000000000' });
    await expect(page.getByText('Sign-in failed').waitFor(NO_LIMIT)).resolves.toBeUndefined();
    await shot('02-sign-in-refused');

    await page.getByLabel('API key', { exact: true }).fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who-role').waitFor(NO_LIMIT);
    expect(await page.getByTestId('who-role').innerText()).toBe('Admin');
    expect(await page.getByTestId('who-org').innerText()).toBe('Demo organization');
    // The key never reaches the page.
    expect(await page.content()).not.toContain(apiKey);
  });

  it('registers the two devices in the registry, one with an image', async () => {
    await go('Devices');
    for (const [serial, name, image] of [
      ['SRCP000101', 'Crane 2 remote', true],
      ['EPC000101', 'Crane 2 controller', false],
    ] as const) {
      await page.getByRole('button', { name: 'Register device' }).click();
      await page.getByLabel('Serial number', { exact: true }).fill(serial);
      await page.getByLabel('Name', { exact: true }).fill(name);
      if (image)
        await page
          .getByLabel('Image (optional)', { exact: true })
          .setInputFiles({ name: 'remote.png', mimeType: 'image/png', buffer: PNG });
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.locator(`tr[data-serial="${serial}"]`).waitFor(NO_LIMIT);
    }
    await expect(page.locator('tr[data-serial="SRCP000101"] img.thumb').count()).resolves.toBe(1);
    await shot('03-devices-registered');
  });

  it('designs the configuration, showing a validation error beside its field and clearing it when fixed', async () => {
    await go('Configurations');
    await page.getByRole('button', { name: 'New configuration' }).click();
    await page.getByLabel('Name of the new configuration', { exact: true }).fill('Crane 2 — SRCP to EPC over ISM');
    await page.getByRole('button', { name: 'Create and open' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor(NO_LIMIT);

    await page.getByLabel('Safety timeout', { exact: true }).selectOption('1000ms');
    await page.getByLabel('ISM channel', { exact: true }).fill('22');
    // Instant: the domain's rule, beside the field, before anything is sent.
    const channelError = page
      .locator('.field--invalid', { has: page.getByLabel('ISM channel', { exact: true }) })
      .locator('.field__error');
    await channelError.waitFor(NO_LIMIT);
    expect(await channelError.innerText()).toContain('does not exist in North America');
    expect(await page.getByLabel('ISM channel', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shot('04-designer-validation-error');

    await page.getByLabel('ISM channel', { exact: true }).fill('5');
    await expect(channelError.count()).resolves.toBe(0);
    await page.getByLabel('ISM transmit power', { exact: true }).selectOption('High');
    await page.getByLabel('CAN mode', { exact: true }).selectOption('none');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('.form-actions__note', { hasText: 'Saved' }).waitFor(NO_LIMIT);

    for (const [serial, role] of [
      ['SRCP000101', 'Sender'],
      ['EPC000101', 'Receiver'],
    ] as const) {
      await page.getByRole('button', { name: 'Add device' }).click();
      const form = page.getByRole('form', { name: 'Add a device' });
      await form.getByLabel('Device', { exact: true }).selectOption(serial);
      await form.getByLabel('Role', { exact: true }).selectOption(role);
      await form.getByRole('checkbox', { name: 'ISM' }).check();
      if (serial === 'SRCP000101') {
        // Per-type fields: an SRCP has no inputs and no CAN; an EPC has both.
        await expect(form.getByLabel('Input 1 (J1 pins 3, 6)', { exact: true }).count()).resolves.toBe(0);
      } else {
        await expect(form.getByLabel('Input 1 (J1 pins 3, 6)', { exact: true }).count()).resolves.toBe(1);
        await expect(form.getByLabel('Stop category', { exact: true }).count()).resolves.toBe(0);
      }
      await form.getByRole('button', { name: 'Add to configuration' }).click();
      await page.getByRole('cell', { name: serial, exact: true }).waitFor(NO_LIMIT);
      // The picture fits the view after every add: each device lies wholly inside the canvas.
      await expect.poll(() => devicesOutsideTheCanvas(page), { timeout: 30_000 }).toEqual([]);
    }
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByText('Complete', { exact: true }).waitFor(NO_LIMIT);
    await expect(status.getByText('Ready', { exact: true }).count()).resolves.toBe(2);
    await shot('05-designer-complete');
  });

  it('updates firmware and applies the configuration on the workbench, every bar reaching done', async () => {
    await go('Workbench');
    for (const serial of ['SRCP000101', 'EPC000101']) {
      await page.locator(`tr[data-serial="${serial}"]`).getByText('Firmware 1.1.0').waitFor(NO_LIMIT);
    }
    await shot('06-workbench-attached');
    await page.getByRole('checkbox', { name: 'Select all devices' }).check();
    await page.getByRole('button', { name: 'Both' }).click();
    await page.locator('.toolbar__count', { hasText: '0 selected' }).waitFor(NO_LIMIT);
    await page.locator('.progress[data-phase="uploading"]').first().waitFor(NO_LIMIT);
    // Rate and time left appear once the transfer has been measured.
    const firmwareUpload = page.locator('.workbench-table .progress', {
      has: page.locator('.progress__label', { hasText: 'Uploading firmware' }),
    });
    await firmwareUpload.locator('.progress__eta', { hasText: 'left' }).first().waitFor(NO_LIMIT);
    // A measured upload's row names its coding: each row's coding and time left read in one go
    // (an upload at 115200 baud lasts seconds; this reads it within milliseconds of the wait).
    const rows = await page.locator('.workbench-table .progress').evaluateAll((cells) =>
      cells.map((cell) => ({
        label: cell.querySelector('.progress__label')?.textContent ?? '',
        coding: cell.querySelector('.progress__coding')?.textContent ?? '',
        left: cell.querySelector('.progress__eta')?.textContent ?? '',
      })),
    );
    const measured = rows.filter((row) => row.label === 'Uploading firmware' && row.left.endsWith('left'));
    expect(measured.length).toBeGreaterThan(0);
    expect(measured.map((row) => row.coding)).toEqual(
      measured.map(() => expect.stringMatching(/^(compressed|changes only), (\d+\.\d× faster|no faster)$/)),
    );
    await shot('07-workbench-progress');
    // Rows keep their height while the bars move: no layout jumps.
    const heights = await page
      .locator('.workbench-table tbody tr[data-link]')
      .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));

    // Both bars done (the second match exists only once both are).
    await page.locator('.workbench-table .progress[data-phase="done"]').nth(1).waitFor(NO_LIMIT);
    await expect(page.locator('.workbench-table .progress').count()).resolves.toBe(2);
    const after = await page
      .locator('.workbench-table tbody tr[data-link]')
      .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    // Within a pixel: the parameter tables that open under finished rows change how the table
    // rounds fractional row heights, which is not a row growing or shrinking.
    expect(after).toHaveLength(heights.length);
    after.forEach((height, row) => expect(Math.abs(height - heights[row]!)).toBeLessThanOrEqual(1));
    for (const serial of ['SRCP000101', 'EPC000101']) {
      await page
        .locator(`tr[data-serial="${serial}"] [data-testid="workbench-firmware"]`, { hasText: '1.1.0' })
        .waitFor(NO_LIMIT);
    }
    await shot('08-workbench-done');
  }, 300_000);

  it('shows the new firmware version and the deploy status in the registry', async () => {
    await go('Devices');
    for (const serial of ['SRCP000101', 'EPC000101']) {
      const row = page.locator(`tr[data-serial="${serial}"]`);
      await row.getByTestId('registry-firmware').getByText('1.1.0').waitFor(NO_LIMIT);
      expect(await row.getByTestId('registry-deploy').innerText()).toBe('Deployed');
    }
    await shot('09-devices-after');
  });

  it('is usable from the keyboard, with the focus always visible', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Configurations' }).focus();
    await page.keyboard.press('Tab');
    const devicesItem = page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Devices' });
    await expect(devicesItem.evaluate((el) => el.ownerDocument.activeElement === el)).resolves.toBe(true);
    await expect(
      devicesItem.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).outlineStyle),
    ).resolves.toBe('solid');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Register device' }).waitFor(NO_LIMIT);
    await expect(devicesItem.getAttribute('aria-current')).resolves.toBe('page');
  });

  it('shows every other screen', async () => {
    await go('Firmware');
    await page.getByRole('heading', { name: 'EPC' }).waitFor(NO_LIMIT);
    await shot('10-firmware');
    await go('Network templates');
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Template name', { exact: true }).fill('Plant LAN');
    await page.getByLabel('Netmask', { exact: true }).fill('255.255.255.0');
    await page.getByLabel('Gateway', { exact: true }).fill('10.0.0.1');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('cell', { name: 'Plant LAN' }).waitFor(NO_LIMIT);
    await shot('11-templates');
    await go('Users');
    await page.getByRole('heading', { name: 'Users' }).waitFor(NO_LIMIT);
    await shot('12-users');
    await go('API keys');
    await page.getByRole('cell', { name: /demo-admin/ }).waitFor(NO_LIMIT);
    await shot('13-api-keys');
    await go('Outbox & logs');
    await page.getByText('Every confirmation has reached the service.').waitFor(NO_LIMIT);
    await shot('14-outbox-logs');
    expect([...world.pageErrors, ...world.consoleErrors]).toEqual([]);
  });
});

/** Devices of the system picture not wholly inside its visible canvas, with their boxes. */
async function devicesOutsideTheCanvas(page: Page): Promise<string[]> {
  return page.getByTestId('topology-canvas').evaluate((canvas) => {
    const frame = canvas.getBoundingClientRect();
    return [...canvas.querySelectorAll('.react-flow__node')]
      .map((node) => ({
        serial: node.querySelector('[data-serial]')?.getAttribute('data-serial') ?? '?',
        box: node.getBoundingClientRect(),
      }))
      .filter(
        ({ box }) =>
          box.left < frame.left - 1 ||
          box.top < frame.top - 1 ||
          box.right > frame.right + 1 ||
          box.bottom > frame.bottom + 1,
      )
      .map(
        ({ serial, box }) =>
          `${serial} at ${Math.round(box.left)},${Math.round(box.top)}-${Math.round(box.right)},${Math.round(box.bottom)} (canvas ${Math.round(frame.left)},${Math.round(frame.top)}-${Math.round(frame.right)},${Math.round(frame.bottom)})`,
      );
  });
}
