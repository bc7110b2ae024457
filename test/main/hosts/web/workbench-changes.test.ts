import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, FileSecretStore, type Core } from '../../../../main/app';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import { buildRenderer } from '../../../../main/hosts/web/build-renderer';
import { startWebServer, type WebServer } from '../../../../main/hosts/web/server';
import { startSimulatedWorkbench, trustedReleaseKeys, type SimulatedWorkbench } from '../../../../main/hosts/web/simulated-workbench';
import { epcToEpcOverEthernet } from '../../../fixtures/typical-flows';
import { buildFlow } from '../../app/jobs/helpers/flows';

/**
 * Issue 16's change view in a real browser: before an apply, a Workbench row says what the
 * device's next file changes against the one it was last confirmed with, parameter by parameter,
 * in plain words; after a change of the configuration, only what changed. Screenshots go to
 * test/e2e/screenshots/.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const NO_LIMIT = { timeout: 0 };
const SERIAL = 'EPC000101';

let dir: string;
let core: Core;
let server: WebServer;
let workbench: SimulatedWorkbench;
let browser: Browser;
let page: Page;
let client: ServiceClient;
let configurationId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'provisioner-e2e-changes-'));
  await mkdir(SCREENSHOTS, { recursive: true });
  await buildRenderer({ quiet: true });
  const workbenchDir = join(dir, 'workbench');
  core = await createCore({
    dataDir: join(dir, 'app'),
    secretStore: new FileSecretStore(join(dir, 'app', 'secrets.json')),
    host: 'web',
    resume: false,
    deviceList: { serial: { portGlobs: [join(workbenchDir, 'pty', '*')], listPorts: async () => [] }, pollIntervalMs: 300 },
  });
  const workspace = await core.session.ensureWorkspace();
  const signing = (await (await fetch(`${workspace.serviceUrl}/v1/config-file-signing-key`)).json()) as { data: { publicKeyPem: string } };
  workbench = await startSimulatedWorkbench({ dir: workbenchDir, publicKeyPem: signing.data.publicKeyPem, releaseKeysPem: await trustedReleaseKeys(workspace.serviceUrl), types: ['EPC'] });
  client = createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
  configurationId = await buildFlow(client, epcToEpcOverEthernet);
  await core.session.useLocalWorkspace();
  server = await startWebServer({ core, rendererDir: fileURLToPath(new URL('../../../../dist/renderer/', import.meta.url)) });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await page.goto(server.openUrl);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
  await workbench?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function changeRows(): Promise<string[]> {
  const view = page.getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` });
  await view.locator('tbody tr, p').first().waitFor(NO_LIMIT);
  return (await view.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim()).join(' | '));
}

describe('the change view before an apply', () => {
  it('lists every setting as new before the first apply, then only what a configuration change changes', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: 'Workbench' }).click();
    const row = page.locator(`tr[data-serial="${SERIAL}"]`);
    const changes = row.getByRole('button', { name: `What applying the configuration changes on ${SERIAL}` });
    await changes.waitFor(NO_LIMIT);
    await changes.click();
    const first = await changeRows();
    expect(first).toContain('Safety timeout | not set | 500 ms');
    expect(first).toContain('IP address | not set | 192.168.10.11');
    expect(await page.getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` }).innerText()).toContain('No configuration was confirmed on this device yet');
    await page.screenshot({ path: join(SCREENSHOTS, '16-change-view-first.png'), fullPage: true });

    const [device] = (await core.invoke('workbench.devices', {})).filter((d) => d.serialNumber === SERIAL);
    const [job] = await core.invoke('workbench.start', { action: 'configuration', linkIds: [device!.linkId] });
    let deployed: string | null = null;
    while (!deployed) {
      const jobs = await core.invoke('workbench.jobs', {});
      const mine = jobs.find((j) => j.jobId === job!.jobId);
      expect(mine?.phase).not.toBe('failed');
      deployed = mine?.phase === 'done' ? ((await client.devices.list({ serial: SERIAL })).items[0]?.deployedSyncId ?? null) : null;
      if (!deployed) await new Promise((resolve) => setTimeout(resolve, 200));
    }

    await client.configurations.update(configurationId, { timeoutConfiguration: '1000ms' });
    // Close and open again: the view is read when opened.
    await changes.click();
    await changes.click();
    await page.getByRole('region', { name: `What applying the configuration changes on ${SERIAL}` }).getByText(`The device holds syncId ${deployed}`).waitFor(NO_LIMIT);
    expect(await changeRows()).toEqual(['Safety timeout | 500 ms | 1 s']);
    await page.screenshot({ path: join(SCREENSHOTS, '16-change-view-after-edit.png'), fullPage: true });
  });
});
