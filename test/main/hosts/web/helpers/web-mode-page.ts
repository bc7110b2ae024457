import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Core, LocalWorkspace, SimulationPort } from '../../../../../main/core';
import { RENDERER_DIST_DIR } from '../../../../../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../../../../../main/hosts/web/server';
import { configFileSigningKey, trustedReleaseKeys } from '../../../../../main/hosts/web/simulated-workbench';
import { createWebCore, type TestDevices } from './web-core';
import { builtApp } from '../../../../fixtures/built-app';

/**
 * What every browser test of web mode starts the same way: the renderer built by Vite, a web-mode
 * core on a data directory of its own, web mode's server, and Debian's chromium on its page, with
 * the page's errors collected. Plus the few steps every such test takes on the page.
 */

export const SCREENSHOTS = fileURLToPath(new URL('../../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
/** Playwright's waits: no wall-clock limit of their own; the test's timeout is the only guard. */
export const NO_LIMIT = { timeout: 0 };

/** What a simulated device made for a service must trust: its configuration-file signing key and its firmware release keys. */
export async function deviceKeys(serviceUrl: string): Promise<{ publicKeyPem: string; releaseKeysPem: string[] }> {
  return { publicKeyPem: await configFileSigningKey(serviceUrl), releaseKeysPem: await trustedReleaseKeys(serviceUrl) };
}

export interface WebModePage {
  /** The test's own directory, removed on close. */
  dir: string;
  core: Core;
  /** The core's local workspace: the embedded service the page signs in to. */
  workspace: LocalWorkspace;
  server: WebServer;
  page: Page;
  /** The page's uncaught exceptions. */
  pageErrors: string[];
  /** What the page logged to its console as an error. */
  consoleErrors: string[];
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Handed to `prepare`: the core is up, its workspace runs, the page is not open yet. */
export interface WebModeSetup {
  dir: string;
  core: Core;
  workspace: LocalWorkspace;
  /** Stops something the setup started, on close, after the core (devices outlive the core that talks to them). */
  stopOnClose(stop: () => Promise<void>): void;
}

export async function startWebModePage(options: {
  /** Names the test's temporary directory. */
  name: string;
  devices: TestDevices;
  /** Runs before the page opens (start simulated devices, fill the service, choose the account). */
  prepare?: (setup: WebModeSetup) => Promise<void>;
  /** Screenshots of the whole page rather than of the viewport. */
  fullPageShots?: boolean;
  acceptDownloads?: boolean;
  /** The simulated bench the core serves, as web mode's --simulate gives it (simulationPortOf). */
  simulation?: SimulationPort;
}): Promise<WebModePage> {
  const dir = await mkdtemp(join(tmpdir(), `provisioner-e2e-${options.name}-`));
  await mkdir(SCREENSHOTS, { recursive: true });
  await builtApp();
  let core: Core | undefined;
  let server: WebServer | undefined;
  let browser: Browser | undefined;
  const stops: (() => Promise<void>)[] = [];
  const close = async () => {
    await browser?.close();
    await server?.close();
    await core?.close();
    for (const stop of stops) await stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    core = await createWebCore(dir, options.devices, options.simulation);
    const workspace = await core.session.ensureWorkspace();
    await options.prepare?.({ dir, core, workspace, stopOnClose: (stop) => stops.push(stop) });
    server = await startWebServer({ core, rendererDir: RENDERER_DIST_DIR });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    // axe-core/playwright opens a page of its own in the page's context: it needs a context made with newContext.
    const context = await browser.newContext({
      viewport: { width: 1440, height: 1000 },
      ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(String(err)));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(server.openUrl);
    const fullPage = options.fullPageShots ?? false;
    const shot = async (name: string) => {
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
    };
    return { dir, core, workspace, server, page, pageErrors, consoleErrors, shot, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Clicks a screen's entry in the sidebar. */
export async function goTo(page: Page, screen: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: screen }).click();
}

/** Fills the sign-in form and presses Sign in, without waiting for the outcome. */
export async function submitSignIn(
  page: Page,
  account: { serviceUrl: string; apiKey: string; orgId?: string },
): Promise<void> {
  await page.getByLabel('Service URL', { exact: true }).fill(account.serviceUrl);
  await page.getByLabel('Organization', { exact: true }).fill(account.orgId ?? 'demo');
  await page.getByLabel('API key', { exact: true }).fill(account.apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the form and waits until the top bar shows the role. */
export async function signIn(
  page: Page,
  account: { serviceUrl: string; apiKey: string; orgId?: string },
): Promise<void> {
  await submitSignIn(page, account);
  await page.getByTestId('who-role').waitFor(NO_LIMIT);
}

/** axe-core's serious and critical findings on the page as it is now, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
