import { BrowserWindow, nativeTheme, screen } from 'electron';
import { APP_ENTRY_URL } from './app-origin';
import { windowBackground } from './window-background';
import { MIN_WINDOW_SIZE, loadWindowState, restoreBounds, saveWindowState } from './window-state';

export interface MainWindowOptions {
  preloadPath: string;
  /** JSON file in userData that remembers size and position. */
  stateFile: string;
  isDev: boolean;
  title: string;
}

/**
 * The renderer runs with no Node.js, isolated from the preload, in Chromium's OS sandbox, with
 * web security on; its only way to main is the preload's `window.provisioner`.
 */
export function secureWebPreferences(preloadPath: string, isDev: boolean): Electron.WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // A technician's build has no developer tools: nothing to paste a script into.
    devTools: isDev,
  };
}

export async function createMainWindow({
  preloadPath,
  stateFile,
  isDev,
  title,
}: MainWindowOptions): Promise<BrowserWindow> {
  const saved = await loadWindowState(stateFile);
  const bounds = restoreBounds(
    saved,
    screen.getAllDisplays().map((display) => display.workArea),
  );
  const window = new BrowserWindow({
    ...bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title,
    show: false,
    backgroundColor: windowBackground(nativeTheme),
    webPreferences: secureWebPreferences(preloadPath, isDev),
  });
  if (saved?.maximized) window.maximize();
  followSystemAppearance(window);
  window.once('ready-to-show', () => window.show());
  rememberWindowState(window, stateFile);
  await window.loadURL(APP_ENTRY_URL);
  return window;
}

/**
 * The system switching to dark or high contrast while the app runs, or the technician choosing
 * light or dark in the app (native-theme.ts sets nativeTheme.themeSource): the window's ground
 * follows (the page follows by itself, through its media queries and its own choice).
 */
function followSystemAppearance(window: BrowserWindow): void {
  const update = () => {
    if (!window.isDestroyed()) window.setBackgroundColor(windowBackground(nativeTheme));
  };
  nativeTheme.on('updated', update);
  window.once('closed', () => nativeTheme.removeListener('updated', update));
}

/** Saved on close (the bounds before maximising, so un-maximising next time restores them). */
function rememberWindowState(window: BrowserWindow, stateFile: string): void {
  window.on('close', () => {
    const normal = window.getNormalBounds();
    void saveWindowState(stateFile, { ...normal, maximized: window.isMaximized() }).catch((err: unknown) => {
      console.warn(`Could not remember the window size: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
}
