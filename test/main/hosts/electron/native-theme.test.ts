import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_NATIVE_THEME_CHANNEL, type CoreHost } from '../../../../contract/index';
import { app, BrowserWindow, fake, nativeTheme } from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

const { registerNativeThemeIpc } = await import('../../../../main/hosts/electron/native-theme');
const { startShell } = await import('../../../../main/hosts/electron/shell');
const { WINDOW_BACKGROUNDS } = await import('../../../../main/hosts/electron/window-background');

/**
 * The shell's own menus and dialogs follow the app's theme choice: the renderer sends it as
 * nativeTheme.themeSource on its own IPC channel (main/hosts/electron/native-theme.ts), accepted
 * only from the main frame of our window and only as 'system', 'light' or 'dark'.
 */

let window: BrowserWindow;
let logs: string[];

beforeEach(async () => {
  fake.reset();
  window = new BrowserWindow({});
  await window.loadURL('app://provisioner/index.html');
  logs = [];
  registerNativeThemeIpc({ getWindow: () => window as never, log: (message) => logs.push(message) });
});

const fromOurWindow = (source: unknown) =>
  fake.invoke(window.webContents, window.webContents.mainFrame, IPC_NATIVE_THEME_CHANNEL, source);

describe('the native theme over IPC', () => {
  it('sets nativeTheme.themeSource to what our window asks for', async () => {
    for (const source of ['dark', 'light', 'system'] as const) {
      await fromOurWindow(source);
      expect(nativeTheme.themeSource).toBe(source);
    }
  });

  it('refuses a value Electron does not take, saying which it does, and keeps the theme', async () => {
    await fromOurWindow('dark');
    for (const value of ['high-contrast', 'Dark', '', 42, null, { toString: 'dark' }, ['dark']]) {
      await expect(fromOurWindow(value), JSON.stringify(value)).rejects.toThrow(
        /^Invalid native theme .*: use one of system, light, dark$/,
      );
    }
    expect(nativeTheme.themeSource).toBe('dark');
  });

  it('refuses a subframe, another window, another origin and a window that is gone', async () => {
    const subframe = window.webContents.createSubframe('app://provisioner/embedded.html');
    await expect(fake.invoke(window.webContents, subframe, IPC_NATIVE_THEME_CHANNEL, 'dark')).rejects.toThrow(
      /only from the Provisioner window/,
    );
    expect(logs.join('\n')).toMatch(/native theme change from an untrusted sender.*subframe/);

    const other = new BrowserWindow({});
    await other.loadURL('app://provisioner/index.html');
    await expect(
      fake.invoke(other.webContents, other.webContents.mainFrame, IPC_NATIVE_THEME_CHANNEL, 'dark'),
    ).rejects.toThrow(/Refused/);

    await window.loadURL('https://evil.example/');
    await expect(fromOurWindow('dark')).rejects.toThrow(/Refused/);
    await window.loadURL('app://provisioner/index.html');
    window.destroy();
    await expect(fromOurWindow('light')).rejects.toThrow(/Refused/);
    expect(nativeTheme.themeSource).toBe('system');
  });
});

describe('in the shell', () => {
  it('is registered at start, moves the window’s ground with the choice, and is removed on quit', async () => {
    fake.reset();
    const userData = await mkdtemp(join(tmpdir(), 'provisioner-native-theme-'));
    app.userData = userData;
    try {
      const idleCore: CoreHost = { invoke: async () => null as never, subscribe: () => () => {} };
      const shell = await startShell({
        createCore: async () => idleCore,
        appRoot: '/opt/provisioner-app',
        log: () => {},
      });
      const ours = shell!.window() as unknown as BrowserWindow;
      await ours.loadURL('app://provisioner/index.html');
      expect(ours.backgroundColor).toBe(WINDOW_BACKGROUNDS.light);

      await fake.invoke(ours.webContents, ours.webContents.mainFrame, IPC_NATIVE_THEME_CHANNEL, 'dark');
      expect(nativeTheme.themeSource).toBe('dark');
      // What Electron does when themeSource changes: the system's colours as the app now draws them.
      nativeTheme.shouldUseDarkColors = true;
      nativeTheme.emit('updated');
      expect(ours.backgroundColor).toBe(WINDOW_BACKGROUNDS.dark);

      app.emit('before-quit', { preventDefault() {} });
      await expect(
        fake.invoke(ours.webContents, ours.webContents.mainFrame, IPC_NATIVE_THEME_CHANNEL, 'light'),
      ).rejects.toThrow(/No handler registered/);
    } finally {
      await rm(userData, { recursive: true, force: true });
    }
  });
});
