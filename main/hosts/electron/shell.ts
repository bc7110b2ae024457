import { app, Menu, session, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import type { CoreHost } from '../../../contract/index';
import { registerContractIpc } from './contract-ipc';
import { KnownSecrets } from '../known-secrets';
import { createMainWindow } from './main-window';
import { registerNativeThemeIpc } from './native-theme';
import { buildMenuTemplate } from './menu-template';
import { registerAppScheme, serveRenderer } from './renderer-protocol';
import { SafeStorageSecretStore } from './safe-storage-secret-store';
import { applySessionPolicy } from './session-policy';
import { claimSingleInstance } from './single-instance';
import { guardWebContents } from './web-contents-guard';
import { WINDOW_STATE_FILE } from './window-state';

const CORE_CLOSE_TIMEOUT_MS = 5_000;
/** The productName of electron-builder.yml; in development app.getName() is package.json's lower-case name. */
const PRODUCT_NAME = 'Provisioner';

export interface CoreContext {
  userDataDir: string;
  /** The API key between runs, encrypted with safeStorage; refuses to store where it cannot encrypt. */
  secretStore: SafeStorageSecretStore;
  /**
   * For any other secret the core holds (e.g. the local workspace's generated key): from then on
   * it is cut out of everything sent to the renderer. Keys passing through sign-in and the secret
   * store are withheld already.
   */
  withholdSecret: (secret: string) => void;
}

/** The hosted core, plus an optional shutdown (close device links, flush the outbox). */
export type HostedCore = CoreHost & { close?: () => Promise<void> };

export interface ShellOptions {
  createCore: (context: CoreContext) => Promise<HostedCore>;
  /** Where package.json and dist/ are: the project folder in development, app.asar when packaged. */
  appRoot?: string;
  log?: (message: string) => void;
}

export interface Shell {
  window: () => BrowserWindow | null;
  core: HostedCore;
}

/**
 * The Electron main process: one window, one core, the contract between them. Resolves with null
 * in a second launch (which hands over to the first and quits).
 */
export async function startShell({ createCore, appRoot, log = console.warn }: ShellOptions): Promise<Shell | null> {
  // Every renderer in the OS sandbox, whatever a future BrowserWindow call forgets to say.
  app.enableSandbox();
  registerAppScheme();

  let window: BrowserWindow | null = null;
  const getWindow = () => (window && !window.isDestroyed() ? window : null);
  if (!claimSingleInstance(getWindow)) {
    app.quit();
    return null;
  }
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, log));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  await app.whenReady();
  const root = appRoot ?? app.getAppPath();
  const isDev = !app.isPackaged;
  const userDataDir = app.getPath('userData');

  serveRenderer(join(root, 'dist', 'renderer'));
  applySessionPolicy(session.defaultSession, log);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(buildMenuTemplate({ appName: PRODUCT_NAME, isMac: process.platform === 'darwin', isDev })),
  );
  app.setAboutPanelOptions({
    applicationName: PRODUCT_NAME,
    applicationVersion: app.getVersion(),
    copyright: 'Provision networked safety devices over USB serial, BLE or IP.',
  });

  const secrets = new KnownSecrets();
  const core = await createCore({
    userDataDir,
    secretStore: new SafeStorageSecretStore(userDataDir, secrets),
    withholdSecret: (secret) => secrets.add(secret),
  });
  const stopIpc = registerContractIpc({ core, getWindow, secrets, log });
  const stopNativeThemeIpc = registerNativeThemeIpc({ getWindow, log });

  const openWindow = async () => {
    window = await createMainWindow({
      preloadPath: join(root, 'dist', 'preload', 'preload.cjs'),
      stateFile: join(userDataDir, WINDOW_STATE_FILE),
      isDev,
      title: PRODUCT_NAME,
    });
  };
  app.on('activate', () => {
    if (!getWindow()) void openWindow();
  });
  // Quitting waits (a little) for the core to close its device links and flush the outbox.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    closed = true;
    stopIpc();
    stopNativeThemeIpc();
    const closing = Promise.resolve(core.close?.()).catch((err: unknown) =>
      log(`Core did not close cleanly: ${String(err)}`),
    );
    void Promise.race([closing, new Promise((resolve) => setTimeout(resolve, CORE_CLOSE_TIMEOUT_MS))]).then(() =>
      app.quit(),
    );
  });
  await openWindow();
  return { window: getWindow, core };
}
