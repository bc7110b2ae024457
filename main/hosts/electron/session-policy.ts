import type { Session } from 'electron';
import { withContentSecurityPolicy } from './csp';

/**
 * Locks down the renderer's session. Device I/O (serial, BLE, USB) runs in main through the core,
 * so the page needs no permission at all: every request and check is denied, and Chromium's
 * device pickers (Web Serial, WebHID, WebUSB) are cancelled without showing anything.
 * The CSP is also put on every response that passes the network stack; app:// responses carry it
 * from the protocol handler already.
 */
export function applySessionPolicy(session: Session, log: (message: string) => void = console.warn): void {
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    log(`Permission request denied: ${permission}`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('select-serial-port', (event, _ports, _webContents, callback) => {
    event.preventDefault();
    callback('');
  });
  session.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault();
    callback();
  });
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
}
