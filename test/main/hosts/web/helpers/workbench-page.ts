import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { DeviceType } from '../../../../../domain/device-types';
import { createCore, FileSecretStore, type Core } from '../../../../../main/app';
import { createServiceClient, type ServiceClient } from '../../../../../main/cloud';
import { buildRenderer } from '../../../../../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../../../../../main/hosts/web/server';
import { startSimulatedWorkbench, trustedReleaseKeys, type SimulatedWorkbench } from '../../../../../main/hosts/web/simulated-workbench';

export const SCREENSHOTS = fileURLToPath(new URL('../../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** Playwright's waits: no wall-clock limit of their own; the test's timeout is the only guard. */
export const NO_LIMIT = { timeout: 0 };

/** Web mode on the local workspace, simulated devices on ptys it finds by glob, and Debian's chromium on its page. */
export interface WorkbenchPage {
  dir: string;
  core: Core;
  client: ServiceClient;
  page: Page;
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWorkbenchPage(options: {
  name: string;
  types: readonly DeviceType[];
  /** Runs against the workspace's service before the page opens (register devices, build configurations). */
  prepare?: (client: ServiceClient) => Promise<void>;
}): Promise<WorkbenchPage> {
  const dir = await mkdtemp(join(tmpdir(), `provisioner-e2e-${options.name}-`));
  await mkdir(SCREENSHOTS, { recursive: true });
  await buildRenderer({ quiet: true });
  const workbenchDir = join(dir, 'workbench');
  let core: Core | undefined;
  let workbench: SimulatedWorkbench | undefined;
  let server: WebServer | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await server?.close();
    await core?.close();
    await workbench?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    core = await createCore({
      dataDir: join(dir, 'app'),
      secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
      host: 'web',
      resume: false,
      deviceList: { serial: { portGlobs: [join(workbenchDir, 'pty', '*')], listPorts: async () => [] }, pollIntervalMs: 300 },
    });
    const workspace = await core.session.ensureWorkspace();
    const signing = (await (await fetch(`${workspace.serviceUrl}/v1/config-file-signing-key`)).json()) as { data: { publicKeyPem: string } };
    workbench = await startSimulatedWorkbench({ dir: workbenchDir, publicKeyPem: signing.data.publicKeyPem, releaseKeysPem: await trustedReleaseKeys(workspace.serviceUrl), types: options.types });
    const client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
    await options.prepare?.(client);
    await core.session.useLocalWorkspace();
    server = await startWebServer({ core, rendererDir: fileURLToPath(new URL('../../../../../dist/renderer/', import.meta.url)) });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto(server.openUrl);
    return { dir, core, client, page, shot: (name) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true }).then(() => undefined), close };
  } catch (error) {
    await close();
    throw error;
  }
}
