import type { BrowserWindow, IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { isAppUrl } from './app-origin';

/**
 * Whether an IPC message comes from the one place allowed to talk to main: the main frame of our
 * own window, showing our own origin. As electron/fiddle's ipc.ts does, check the sender rather
 * than trust the channel: a subframe, another window or a page that somehow navigated elsewhere
 * is refused even if it reached ipcRenderer.
 */
export function isTrustedSender(event: IpcMainInvokeEvent | IpcMainEvent, window: BrowserWindow | null): boolean {
  if (!window || window.isDestroyed()) return false;
  if (event.sender.id !== window.webContents.id) return false;
  const frame = event.senderFrame;
  // null when the frame navigated or was destroyed before the message was handled
  if (!frame || frame.parent !== null) return false;
  const main = event.sender.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
  return isAppUrl(frame.url);
}

/** For the log line of a refusal: enough to investigate, nothing the sender controls at length. */
export function describeSender(event: IpcMainInvokeEvent | IpcMainEvent): string {
  const frame = event.senderFrame;
  const url = frame ? frame.url.slice(0, 120) : '(frame gone)';
  return `webContents ${event.sender.id}, ${frame && frame.parent !== null ? 'subframe' : 'main frame'} ${url}`;
}
