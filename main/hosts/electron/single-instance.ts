import { app, type BrowserWindow } from 'electron';

/**
 * One Provisioner per user: two would fight over the same serial ports and the same outbox.
 * Returns false in a second launch, which should quit at once; the first one comes to the front.
 */
export function claimSingleInstance(getWindow: () => BrowserWindow | null): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => {
    const window = getWindow();
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  return true;
}
