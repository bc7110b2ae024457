/**
 * The real renderer build under the shell's Content-Security-Policy, in a real Chromium: every
 * file is served by the same function that answers app:// in Electron (headers included), and a
 * stand-in `window.provisioner` plays the preload. Any inline script or style, eval or foreign
 * origin the renderer needed would show up as a CSP violation here before it broke the app.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtApp } from '../../../fixtures/built-app';

vi.mock('electron', () => import('./fake-electron'));

const { respondWithRendererFile } = await import('../../../../main/hosts/electron/renderer-protocol');

const root = join(import.meta.dirname, '..', '..', '..', '..');
const rendererDir = join(root, 'dist', 'renderer');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * The browser globals the in-page functions touch. This project's Node tsconfig has no DOM lib,
 * and these functions run in Chromium, so they reach them through globalThis with these types.
 */
interface CspViolationEvent {
  violatedDirective: string;
  blockedURI: string;
  sourceFile: string;
  lineNumber: number;
}
interface PageElement {
  textContent: string | null;
  append(child: PageElement): void;
}
interface PageWindow {
  document: {
    addEventListener(type: 'securitypolicyviolation', listener: (event: CspViolationEvent) => void): void;
    createElement(tag: string): PageElement;
    body: PageElement;
    head: PageElement;
  };
  __cspViolations: string[];
  __inlineRan?: boolean;
  __zod_globalConfig?: Record<string, unknown>;
  provisioner?: unknown;
}

/** Runs in the page before its scripts: records CSP violations and stands in for the preload. */
function pageSetup(): void {
  const window = globalThis as unknown as PageWindow;
  const document = window.document;
  // zod probes whether eval works (`new Function('')`) unless told it is jitless; the probe is
  // caught, but Chromium still reports it as a script-src violation. The renderer should say
  // z.config({ jitless: true }) itself; meanwhile this sets zod's global config the same way, so
  // the test catches every other use of eval.
  window.__zod_globalConfig = { jitless: true };
  const violations: string[] = [];
  window.__cspViolations = violations;
  document.addEventListener('securitypolicyviolation', (event) =>
    violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
  );
  const allowed = { allowed: true };
  const capabilities = Object.fromEntries(
    [
      'configurations.read',
      'configurations.write',
      'devices.read',
      'devices.write',
      'files.download',
      'confirmations.send',
      'templates.read',
      'templates.write',
      'users.manage',
      'keys.manage',
    ].map((c) => [c, allowed]),
  );
  const emptyPage = { items: [], page: 1, limit: 20, totalCount: 0 };
  const answers: Record<string, unknown> = {
    'app.info': { appVersion: '0.1.0', host: 'electron', platform: 'linux-x64', nodeVersion: 'v22' },
    'session.get': {
      status: 'signedIn',
      kind: 'local',
      serviceUrl: 'http://127.0.0.1:1',
      orgId: 'demo',
      organizationName: 'Demo organization',
      region: 'NA',
      keyName: 'demo-admin',
      role: 'Admin',
      capabilities,
      remembered: true,
    },
    'configurations.list': emptyPage,
    'devices.list': emptyPage,
    'users.list': emptyPage,
    'templates.list': [],
    'apiKeys.list': [],
    'firmware.overview': [],
    'workbench.devices': [],
    'workbench.jobs': [],
    'outbox.get': {
      entries: [],
      pendingCount: 0,
      rejectedCount: 0,
      oldestPendingSince: null,
      totalCount: 0,
      offset: 0,
      limit: 100,
      nextCursor: null,
    },
    'logs.recent': [],
  };
  window.provisioner = {
    invoke: async (channel: string) =>
      channel in answers
        ? { ok: true, value: answers[channel] }
        : {
            ok: false,
            error: {
              code: 'NOT_FOUND',
              message: `no stand-in answer for ${channel}`,
              violations: [],
              httpStatus: null,
            },
          },
    on: () => () => {},
  };
}

let server: Server;
let browser: Browser;
let baseUrl: string;

describe.runIf(existsSync(CHROMIUM))('the renderer under the shell’s CSP', () => {
  beforeAll(async () => {
    await builtApp();
    server = createServer((request, response) => {
      void respondWithRendererFile(rendererDir, request.method ?? 'GET', `app://provisioner${request.url ?? '/'}`).then(
        async (answer) => {
          response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
          response.end(Buffer.from(await answer.arrayBuffer()));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('renders the app with no CSP violation and no page error', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(String(err)));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
        problems.push(message.text());
    });
    await page.addInitScript(pageSetup);
    const response = await page.goto(`${baseUrl}/index.html`);
    expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'/);
    // the signed-in app with its navigation, i.e. the renderer ran and talked to the stand-in preload
    await page.waitForSelector('nav button', { timeout: 20_000 });
    // visit every screen the navigation offers, so each one's markup is rendered once
    const links = page.locator('nav button');
    const count = await links.count();
    expect(count).toBeGreaterThan(3);
    for (let i = 0; i < count; i++) {
      await links
        .nth(i)
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      await page.waitForTimeout(150);
    }
    const violations = await page.evaluate(() => (globalThis as unknown as PageWindow).__cspViolations);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('blocks what the policy forbids (the check is real)', async () => {
    const page = await browser.newPage();
    await page.addInitScript(pageSetup);
    await page.goto(`${baseUrl}/index.html`);
    await page.evaluate(() => {
      const { document } = globalThis as unknown as PageWindow;
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { color: red }';
      document.head.append(style);
    });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (globalThis as unknown as PageWindow).__inlineRan ?? false)).toBe(false);
    const violations = await page.evaluate(() => (globalThis as unknown as PageWindow).__cspViolations);
    expect(violations.some((v) => v.startsWith('script-src'))).toBe(true);
    expect(violations.some((v) => v.startsWith('style-src'))).toBe(true);
    await page.close();
  }, 60_000);
});
