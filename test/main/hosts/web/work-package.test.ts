import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkPackage } from '../../../../domain/files/work-package';
import { createCore, FileSecretStore, type Core } from '../../../../main/app';
import { buildRenderer } from '../../../../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { srcpToEpcOverIsm } from '../../../../server/seed/typical-flows';

/**
 * The Configurations screen's work package button in a real browser (web mode, Debian's chromium):
 * signed in to a service, it saves one signed package of the configuration's devices and says until
 * when it is good and which workstation key signed it; in the local workspace it says why it cannot.
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
let workspace: { serviceUrl: string; apiKey: string };
const pageErrors: string[] = [];

async function go(screen: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen }).click();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-e2e-work-package-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  await buildRenderer({ quiet: true });
  core = await createCore({
    dataDir: join(dir, 'app'),
    secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
    host: 'web',
    resume: false,
    deviceList: { serial: { portGlobs: [join(dir, 'no-ports', '*')], listPorts: async () => [] }, pollIntervalMs: 1000 },
  });
  workspace = await core.session.ensureWorkspace();
  server = await startWebServer({ core, rendererDir: fileURLToPath(new URL('../../../../dist/renderer/', import.meta.url)) });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(server.openUrl);
  await page.getByLabel('Service URL', { exact: true }).waitFor(NO_LIMIT);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the work package button', () => {
  it('saves a signed package of the configuration when signed in to a service', { timeout: 240_000 }, async () => {
    // The workspace's embedded service, signed in to by its URL as any service is.
    await page.getByLabel('Service URL', { exact: true }).fill(workspace.serviceUrl);
    await page.getByLabel('Organization', { exact: true }).fill('demo');
    await page.getByLabel('API key', { exact: true }).fill(workspace.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who-role').waitFor(NO_LIMIT);
    await go('Configurations');
    const name = srcpToEpcOverIsm.configuration.name;
    const button = page.getByRole('button', { name: `Work package of ${name}` });
    await button.waitFor(NO_LIMIT);

    const download = page.waitForEvent('download', NO_LIMIT);
    await button.click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^Loader-7-remote-ISM-\d{4}-\d{2}-\d{2}\.provisioner-package$/);
    const path = join(dir, saved.suggestedFilename());
    await saved.saveAs(path);

    const opened = readWorkPackage(new Uint8Array(await readFile(path)));
    expect(opened.body.configuration.name).toBe(name);
    expect(opened.body.origin).toEqual({ serviceUrl: workspace.serviceUrl, orgId: 'demo' });
    // The workspace's demo fleet has serial numbers of its own; the configuration's device types are the flow's.
    expect(opened.body.devices.map((d) => d.deviceType).sort()).toEqual(srcpToEpcOverIsm.devices.map((d) => d.deviceType).sort());
    expect(opened.body.firmware.map((f) => f.deviceType).sort()).toEqual(['EPC', 'SRCP']);
    const days = (Date.parse(opened.body.expiresAt) - Date.parse(opened.body.createdAt)) / 86_400_000;
    expect(days).toBe(30);

    const notice = page.getByText(`Work package of “${name}” saved as ${saved.suggestedFilename()}`);
    await notice.waitFor(NO_LIMIT);
    expect(await notice.textContent()).toContain(`Signed by this workstation's key ${opened.signer.keyId}: tell whoever imports it.`);
    await page.screenshot({ path: join(SCREENSHOTS, 'work-package-exported.png') });
    expect(pageErrors).toEqual([]);
  });

  it('says why not in the local workspace', { timeout: 120_000 }, async () => {
    await core.session.useLocalWorkspace();
    await page.reload();
    await go('Configurations');
    const name = srcpToEpcOverIsm.configuration.name;
    const button = page.getByRole('button', { name: `Work package of ${name}` });
    await button.waitFor(NO_LIMIT);
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    expect(await button.getAttribute('title')).toBe('The local workspace is on this computer only: sign in to the service to export a work package.');
    await page.screenshot({ path: join(SCREENSHOTS, 'work-package-local-workspace.png') });
  });
});
