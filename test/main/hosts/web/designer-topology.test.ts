import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, FileSecretStore, type Core } from '../../../../main/app';
import { buildRenderer } from '../../../../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { SENDER_ROLES } from '../../../../domain/enums';
import { DEMO_FLOWS } from '../../../../server/seed/typical-flows';

/**
 * The demo organization's configurations in a real browser (web mode, Debian's chromium): each
 * one's system picture draws one node per device and one edge per sender-receiver pair, under the
 * app's CSP; and every screen passes axe-core with no serious or critical violation.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Playwright's waits: no wall-clock limit of their own; the test's timeout is the only guard. */
const NO_LIMIT = { timeout: 0 };

let dir: string;
let core: Core;
let server: WebServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function go(screen: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen }).click();
}

/** axe-core's serious and critical findings on the page as it is now, as readable lines. */
async function seriousViolations(): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

function senderReceiverPairs(flow: (typeof DEMO_FLOWS)[number]): number {
  const senders = flow.devices.filter((d) => SENDER_ROLES.includes(d.payload.deviceConfigurationType ?? 'Receiver')).length;
  const receivers = flow.devices.filter((d) => d.payload.deviceConfigurationType === 'Receiver').length;
  return senders * receivers;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-e2e-topology-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  await buildRenderer({ quiet: true });
  core = await createCore({
    dataDir: join(dir, 'app'),
    secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
    host: 'web',
    resume: false,
    deviceList: { serial: { portGlobs: [join(dir, 'no-ports', '*')], listPorts: async () => [] }, pollIntervalMs: 1000 },
  });
  const workspace = await core.session.ensureWorkspace();
  server = await startWebServer({ core, rendererDir: fileURLToPath(new URL('../../../../dist/renderer/', import.meta.url)) });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // axe-core/playwright opens a page of its own in the page's context: it needs a context made with newContext.
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(server.openUrl);
  await page.getByLabel('Service URL', { exact: true }).waitFor(NO_LIMIT);
  expect(await seriousViolations()).toEqual([]);
  await page.getByLabel('Service URL', { exact: true }).fill(workspace.serviceUrl);
  await page.getByLabel('Organization', { exact: true }).fill('demo');
  await page.getByLabel('API key', { exact: true }).fill(workspace.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('who-role').waitFor(NO_LIMIT);
  // The first list load and designer render pay for the service's and the page's cold start: here,
  // under the setup's allowance, not in the first configuration's test.
  await go('Configurations');
  await page.getByRole('button', { name: `Open ${DEMO_FLOWS[0]!.configuration.name}` }).waitFor(NO_LIMIT);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the designer’s system picture in a real browser', () => {
  it.each(DEMO_FLOWS.map((flow, index) => [flow.configuration.name, flow, index] as const))('%s: one node per device, one edge per sender-receiver pair', async (_name, flow, index) => {
    await go('Configurations');
    await page.getByRole('button', { name: `Open ${flow.configuration.name}` }).click();
    await page.getByRole('heading', { name: 'System' }).waitFor(NO_LIMIT);
    const canvas = page.getByTestId('topology-canvas');
    await canvas.locator('.react-flow__node').first().waitFor(NO_LIMIT);
    await canvas.locator('.react-flow__edge').first().waitFor(NO_LIMIT);
    expect(await canvas.locator('.react-flow__node').count()).toBe(flow.devices.length);
    expect(await canvas.locator('.react-flow__edge').count()).toBe(senderReceiverPairs(flow));
    await page.screenshot({ path: join(SCREENSHOTS, `topology-${String(index + 1).padStart(2, '0')}-${flow.key}.png`) });
    expect(await seriousViolations()).toEqual([]);
  });

  it('passes axe-core on every screen', async () => {
    const nav = page.getByRole('navigation', { name: 'Screens' }).getByRole('button');
    const screens = await nav.allInnerTexts();
    expect(screens.length).toBeGreaterThan(3);
    const found: string[] = [];
    for (const screen of screens) {
      await go(screen.trim());
      await page.getByRole('heading', { level: 1 }).first().waitFor(NO_LIMIT);
      found.push(...(await seriousViolations()).map((v) => `${screen.trim()}: ${v}`));
    }
    expect(found).toEqual([]);
  });

  it('draws under the app’s CSP with no error in the console', () => {
    expect(pageErrors).toEqual([]);
  });
});
