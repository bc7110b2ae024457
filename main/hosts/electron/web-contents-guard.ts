import { shell, type WebContents } from 'electron';
import { isAllowedExternalUrl } from './external-links';

/**
 * Applied to every webContents the app creates (from app 'web-contents-created'), so no page,
 * however it came to exist, can navigate, open a window, embed a <webview> or pick a Bluetooth
 * device. A link to an explicitly allowed https origin opens in the system browser instead.
 */
export function guardWebContents(contents: WebContents, log: (message: string) => void = console.warn): void {
  const openExternallyIfAllowed = (url: string) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    else log(`Blocked navigation or window to ${url.slice(0, 200)}`);
  };
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternallyIfAllowed(url);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    log(`Blocked redirect to ${url.slice(0, 200)}`);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternallyIfAllowed(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
  contents.on('select-bluetooth-device', (event, _devices, callback) => {
    event.preventDefault();
    callback('');
  });
}
