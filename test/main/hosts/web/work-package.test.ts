import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootKeyFingerprint } from '../../../../domain/files/config-file-signature';
import { readWorkPackage } from '../../../../domain/files/work-package';
import type { Core, LocalWorkspace } from '../../../../main/core';
import { srcpToEpcOverIsm } from '../../../../server/seed/typical-flows';
import { goTo, NO_LIMIT, signIn, startWebModePage, type WebModePage } from './helpers/web-mode-page';

/**
 * The Configurations screen's work package button in a real browser (web mode, Debian's chromium):
 * signed in to a service, it saves one signed package of the configuration's devices and says until
 * when it is good and which workstation key signed it; in the local workspace it says why it cannot.
 */

let world: WebModePage;
let dir: string;
let core: Core;
let page: Page;
let workspace: LocalWorkspace;

async function go(screen: string): Promise<void> {
  await goTo(page, screen);
}

beforeAll(async () => {
  world = await startWebModePage({ name: 'work-package', devices: { pollIntervalMs: 1000 }, acceptDownloads: true });
  ({ dir, core, page, workspace } = world);
  await page.getByLabel('Service URL', { exact: true }).waitFor(NO_LIMIT);
}, 180_000);

afterAll(async () => {
  await world?.close();
});

describe('the work package button', () => {
  it('saves a signed package of the configuration when signed in to a service', { timeout: 240_000 }, async () => {
    // The workspace's embedded service, signed in to by its URL as any service is.
    await signIn(page, workspace);
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
    expect(opened.body.devices.map((d) => d.deviceType).sort()).toEqual(
      srcpToEpcOverIsm.devices.map((d) => d.deviceType).sort(),
    );
    expect(opened.body.firmware.map((f) => f.deviceType).sort()).toEqual(['EPC', 'SRCP']);
    const days = (Date.parse(opened.body.expiresAt) - Date.parse(opened.body.createdAt)) / 86_400_000;
    expect(days).toBe(30);

    const notice = page.getByText(`Work package of “${name}” saved as ${saved.suggestedFilename()}`);
    await notice.waitFor(NO_LIMIT);
    expect(await notice.textContent()).toContain(
      `Signed by the organization's key ${opened.signer.keyId}. A laptop never signed in imports it with the root key fingerprint ${rootKeyFingerprint(opened.body.keys.configFileRootKey.publicKeyPem)}: tell the technician by another road than the package.`,
    );
    // The same fingerprint beside the service in the top bar, for whoever asks for it later.
    const fingerprint = rootKeyFingerprint(opened.body.keys.configFileRootKey.publicKeyPem);
    expect(await page.locator('.topbar__service').getAttribute('title')).toBe(
      `${workspace.serviceUrl}\nRoot key fingerprint: ${fingerprint}`,
    );
    await world.shot('work-package-exported');
    expect([...world.pageErrors, ...world.consoleErrors]).toEqual([]);
  });

  it('says why not in the local workspace', { timeout: 120_000 }, async () => {
    await core.session.useLocalWorkspace();
    await page.reload();
    await go('Configurations');
    const name = srcpToEpcOverIsm.configuration.name;
    const button = page.getByRole('button', { name: `Work package of ${name}` });
    await button.waitFor(NO_LIMIT);
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    expect(await button.getAttribute('title')).toBe(
      'The local workspace is on this computer only: sign in to the service to export a work package.',
    );
    await world.shot('work-package-local-workspace');
  });
});
