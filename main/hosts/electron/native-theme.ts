import { ipcMain, nativeTheme, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { nativeThemeRefusal, IPC_NATIVE_THEME_CHANNEL, isNativeThemeSource } from '../../../contract/index';
import { describeSender, isTrustedSender } from './trusted-sender';

export interface NativeThemeIpcOptions {
  /** Our one window, or null while there is none: nothing else may set the theme. */
  getWindow: () => BrowserWindow | null;
  log?: (message: string) => void;
}

/**
 * The shell's own menus, dialogs and window frame in the app's theme: the renderer sends the
 * technician's choice as Electron's nativeTheme.themeSource ('light', 'dark', or 'system' for "As
 * the system" and for high contrast, which the operating system draws in its own contrast
 * colours). Only our window's main frame may set it, and only to one of those three values. A
 * change of themeSource also changes what the page's prefers-color-scheme reports and fires
 * nativeTheme's 'updated', so the window's ground (window-background.ts) follows the choice too.
 * Returns the undo, for tests and shutdown.
 */
export function registerNativeThemeIpc({ getWindow, log = console.warn }: NativeThemeIpcOptions): () => void {
  ipcMain.handle(IPC_NATIVE_THEME_CHANNEL, (event: IpcMainInvokeEvent, source: unknown): void => {
    if (!isTrustedSender(event, getWindow())) {
      log(`IPC: refused a native theme change from an untrusted sender (${describeSender(event)})`);
      throw new Error('Refused: IPC is accepted only from the Provisioner window');
    }
    if (!isNativeThemeSource(source)) throw new Error(nativeThemeRefusal(source));
    nativeTheme.themeSource = source;
  });
  return () => ipcMain.removeHandler(IPC_NATIVE_THEME_CHANNEL);
}
