import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CoreHost, EventStream } from '../../../../contract/index';
import {
  app,
  BrowserWindow,
  fake,
  Menu,
  protocol,
  session,
  shell as electronShell,
  type FakeWebContents,
} from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

const { startShell } = await import('../../../../main/hosts/electron/shell');

function idleCore(): CoreHost & { closed: boolean; close: () => Promise<void> } {
  return {
    closed: false,
    invoke: async () => null as never,
    subscribe: (_stream: EventStream) => () => {},
    async close() {
      this.closed = true;
    },
  };
}

let userData: string;
const logs: string[] = [];

beforeEach(async () => {
  fake.reset();
  logs.length = 0;
  userData = await mkdtemp(join(tmpdir(), 'provisioner-shell-'));
  app.userData = userData;
});
afterEach(async () => {
  await rm(userData, { recursive: true, force: true });
});

async function start() {
  const shell = await startShell({
    createCore: async () => idleCore(),
    appRoot: '/opt/provisioner-app',
    log: (m) => logs.push(m),
  });
  if (!shell) throw new Error('expected the first instance to start');
  const window = shell.window() as unknown as BrowserWindow;
  return { shell, window, contents: window.webContents as FakeWebContents };
}

describe('Electron shell', () => {
  it('opens one window with isolation, sandbox and web security on and Node.js off', async () => {
    const { window } = await start();
    expect(BrowserWindow.getAllWindows()).toHaveLength(1);
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: join('/opt/provisioner-app', 'dist', 'preload', 'preload.cjs'),
    });
    expect(app.sandboxEnabled).toBe(true);
  });

  it('loads the renderer from the privileged app:// scheme, not file://', async () => {
    const { contents } = await start();
    expect(contents.getURL()).toBe('app://provisioner/index.html');
    expect(protocol.privileged).toEqual([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true, bypassCSP: false }),
      }),
    ]);
    expect(protocol.handlers.has('app')).toBe(true);
  });

  it('denies navigation away from the app and opens allowed https links only', async () => {
    const { contents } = await start();
    const navigation = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('will-navigate', navigation, 'https://evil.example/phish');
    expect(navigation.defaultPrevented).toBe(true);
    const sameApp = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('will-navigate', sameApp, 'app://provisioner/other.html');
    expect(sameApp.defaultPrevented).toBe(true);
    expect(electronShell.opened).toEqual([]);
    expect(logs.some((line) => line.includes('Blocked navigation'))).toBe(true);
  });

  it('denies every new window', async () => {
    const { contents } = await start();
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'app://provisioner/index.html' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(electronShell.opened).toEqual([]);
  });

  it('refuses <webview> and cancels Bluetooth device pickers', async () => {
    const { contents } = await start();
    const attach = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
    const picked: string[] = [];
    const select = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('select-bluetooth-device', select, [{ deviceId: 'AA:BB' }], (id: string) => picked.push(id));
    expect(select.defaultPrevented).toBe(true);
    expect(picked).toEqual(['']);
  });

  it('guards every webContents created later, not just the first window', async () => {
    await start();
    const later = new BrowserWindow({});
    expect(later.webContents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
  });

  it('denies every permission request and check, and every device picker', async () => {
    await start();
    const s = session.defaultSession;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'serial',
      'hid',
      'usb',
      'clipboard-read',
      'openExternal',
    ]) {
      const answers: boolean[] = [];
      s.permissionRequestHandler?.({}, permission, (granted: boolean) => answers.push(granted), {});
      expect(answers, permission).toEqual([false]);
      expect(s.permissionCheckHandler?.({}, permission, 'app://provisioner', {}), permission).toBe(false);
    }
    expect(s.devicePermissionHandler?.({ deviceType: 'serial', origin: 'app://provisioner' })).toBe(false);
    const chosen: unknown[] = [];
    const serial = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    s.emit('select-serial-port', serial, [{ portId: '1' }], {}, (id: string) => chosen.push(id));
    expect(serial.defaultPrevented).toBe(true);
    expect(chosen).toEqual(['']);
  });

  it('puts the strict CSP on every response that crosses the network stack', async () => {
    await start();
    const listener = session.defaultSession.webRequest.headersReceived;
    expect(listener).not.toBeNull();
    let headers: Record<string, string | string[]> | undefined;
    listener?.(
      {
        url: 'https://service.example/v1/version',
        responseHeaders: {
          'content-security-policy': ["default-src *; script-src 'unsafe-inline' 'unsafe-eval'"],
          'Content-Type': ['application/json'],
        },
      },
      (response) => {
        headers = response.responseHeaders;
      },
    );
    const csp = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() === 'content-security-policy');
    expect(csp).toHaveLength(1);
    const value = String(csp[0]?.[1]);
    expect(value).toContain("default-src 'self'");
    expect(value).not.toContain('unsafe-inline');
    expect(value).not.toContain('unsafe-eval');
    expect(headers?.['Content-Type']).toEqual(['application/json']);
  });

  it('has an application menu with File, Edit, View, Window and Help, and reload only in development', async () => {
    await start();
    const labels = (Menu.applicationMenu?.template as Array<{ label?: string }>).map((item) =>
      item.label?.replace('&', ''),
    );
    if (process.platform !== 'darwin') expect(labels).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    const view = JSON.stringify(Menu.applicationMenu?.template);
    expect(view).toContain('"reload"');
    expect(view).toContain('"toggleDevTools"');
  });

  it('gives a packaged build neither reload, developer tools nor a devtools-enabled window', async () => {
    app.isPackaged = true;
    const { window } = await start();
    const view = JSON.stringify(Menu.applicationMenu?.template);
    expect(view).not.toContain('"reload"');
    expect(view).not.toContain('"forceReload"');
    expect(view).not.toContain('"toggleDevTools"');
    expect(window.options.webPreferences?.devTools).toBe(false);
  });

  it('quits a second launch and brings the first window to the front', async () => {
    const { window } = await start();
    window.minimize();
    app.emit('second-instance', {}, ['provisioner'], process.cwd());
    expect(window.isMinimized()).toBe(false);
    expect(window.focused).toBe(true);

    fake.reset();
    app.singleInstanceLock = false;
    const second = await startShell({ createCore: async () => idleCore(), appRoot: '/opt/provisioner-app' });
    expect(second).toBeNull();
    expect(app.quitCalled).toBe(true);
    expect(BrowserWindow.getAllWindows()).toHaveLength(0);
  });

  it('lets the core withhold secrets of its own from everything sent to the renderer', async () => {
    const workspaceKey = 'local-workspace-admin-key-0123456789';
    let publish: ((payload: unknown) => void) | null = null;
    const shell = await startShell({
      appRoot: '/opt/provisioner-app',
      createCore: async ({ withholdSecret }) => {
        withholdSecret(workspaceKey);
        return {
          ...idleCore(),
          subscribe: (stream: EventStream, listener: (payload: never) => void) => {
            if (stream === 'logs.line') publish = listener as (payload: unknown) => void;
            return () => {};
          },
        };
      },
    });
    const contents = (shell?.window() as unknown as BrowserWindow).webContents;
    publish!({ seq: 1, at: 'x', level: 'info', source: 'workspace', message: `started with ${workspaceKey}` });
    expect(JSON.stringify(contents.sent)).not.toContain(workspaceKey);
    expect(contents.sent).toHaveLength(1);
  });

  it('closes the core before quitting', async () => {
    const { shell } = await start();
    const quitting = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    app.emit('before-quit', quitting);
    expect(quitting.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(app.quitCalled).toBe(true));
    expect((shell.core as ReturnType<typeof idleCore>).closed).toBe(true);
  });
});
