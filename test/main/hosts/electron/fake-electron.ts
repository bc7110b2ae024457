/**
 * A stand-in for the `electron` module, for vi.mock('electron'): the binary cannot run on the
 * build machines. It models what the shell relies on, the way Electron behaves: a BrowserWindow
 * owns a webContents whose main frame has a URL, process id and routing id; ipcMain.handle
 * refuses a second handler for a channel; creating a webContents emits app
 * 'web-contents-created'; safeStorage returns bytes that are not the plain text; contextBridge
 * records what a preload exposes. Tests drive it through the `fake` helpers at the bottom.
 */
import { EventEmitter } from 'node:events';

type Handler = (...args: unknown[]) => unknown;

let nextWebContentsId = 1;
let nextRoutingId = 1;

export class FakeFrame {
  readonly routingId = nextRoutingId++;
  constructor(
    public url: string,
    readonly parent: FakeFrame | null,
    readonly processId: number,
  ) {}
  get origin(): string {
    try {
      return new URL(this.url).origin;
    } catch {
      return 'null';
    }
  }
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextWebContentsId++;
  readonly mainFrame: FakeFrame;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  private destroyed = false;

  constructor() {
    super();
    this.mainFrame = new FakeFrame('about:blank', null, 1000 + this.id);
  }
  getURL(): string {
    return this.mainFrame.url;
  }
  async loadURL(url: string): Promise<void> {
    this.mainFrame.url = url;
  }
  send(channel: string, ...args: unknown[]): void {
    // Electron serialises with the structured clone algorithm: functions and class identity are lost.
    this.sent.push({ channel, args: structuredClone(args) });
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
  }
  /** A subframe inside this page (an <iframe>), for IPC sender tests. */
  createSubframe(url: string): FakeFrame {
    return new FakeFrame(url, this.mainFrame, this.mainFrame.processId);
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly all: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  private minimized = false;
  private maximized = false;
  private destroyed = false;
  visible = false;
  focused = false;
  bounds: { x: number; y: number; width: number; height: number };

  constructor(readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> }) {
    super();
    this.bounds = {
      x: typeof options.x === 'number' ? options.x : 100,
      y: typeof options.y === 'number' ? options.y : 100,
      width: typeof options.width === 'number' ? options.width : 800,
      height: typeof options.height === 'number' ? options.height : 600,
    };
    BrowserWindow.all.push(this);
    app.emit('web-contents-created', { preventDefault() {} }, this.webContents);
  }
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.all.filter((w) => !w.destroyed);
  }
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  minimize(): void {
    this.minimized = true;
  }
  restore(): void {
    this.minimized = false;
  }
  maximize(): void {
    this.maximized = true;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  getNormalBounds() {
    return { ...this.bounds };
  }
  /** The window's ground: from the options, then from setBackgroundColor. */
  get backgroundColor(): unknown {
    return this.background ?? this.options.backgroundColor;
  }
  private background: string | undefined;
  setBackgroundColor(color: string): void {
    this.background = color;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
  }
}

/** What the operating system's appearance is; a test sets the fields and emits 'updated'. */
class FakeNativeTheme extends EventEmitter {
  shouldUseDarkColors = false;
  shouldUseHighContrastColors = false;
  themeSource: 'system' | 'light' | 'dark' = 'system';
}
export const nativeTheme = new FakeNativeTheme();

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}
export const ipcMain = new FakeIpcMain();

class FakeWebRequest {
  headersReceived:
    | ((
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string | string[]>; cancel?: boolean }) => void,
      ) => void)
    | null = null;
  onHeadersReceived(listener: NonNullable<FakeWebRequest['headersReceived']>): void {
    this.headersReceived = listener;
  }
}

export class FakeSession extends EventEmitter {
  readonly webRequest = new FakeWebRequest();
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  devicePermissionHandler: Handler | null = null;
  setPermissionRequestHandler(handler: Handler | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler | null): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: Handler | null): void {
    this.devicePermissionHandler = handler;
  }
}
export const session = { defaultSession: new FakeSession() };

export const protocol = {
  privileged: [] as unknown[],
  handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    if (this.handlers.has(scheme)) throw new Error(`Scheme ${scheme} is already handled`);
    this.handlers.set(scheme, handler);
  },
};

class FakeApp extends EventEmitter {
  isPackaged = false;
  singleInstanceLock = true;
  sandboxEnabled = false;
  quitCalled = false;
  userData = '/tmp/provisioner-fake-userdata';
  appPath = '/tmp/provisioner-fake-app';
  requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock;
  }
  getPath(name: string): string {
    if (name === 'userData') return this.userData;
    throw new Error(`fake app.getPath(${name}) not modelled`);
  }
  getAppPath(): string {
    return this.appPath;
  }
  getName(): string {
    return 'Provisioner';
  }
  getVersion(): string {
    return '0.1.0';
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.quitCalled = true;
  }
  enableSandbox(): void {
    this.sandboxEnabled = true;
  }
  setAboutPanelOptions(): void {}
}
export const app = new FakeApp();

/** Bytes that are not the plain text, tagged like Chromium's OSCrypt output ("v10" prefix). */
export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as string,
  isEncryptionAvailable(): boolean {
    return this.available;
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  encryptString(plain: string): Buffer {
    if (!this.available)
      throw new Error(
        'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
      );
    const bytes = Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a);
    return Buffer.concat([Buffer.from('v10'), bytes]);
  },
  decryptString(encrypted: Buffer): string {
    if (encrypted.subarray(0, 3).toString() !== 'v10')
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(encrypted.subarray(3).map((b) => b ^ 0x5a)).toString('utf8');
  },
};

export const Menu = {
  applicationMenu: null as { template: unknown[] } | null,
  buildFromTemplate(template: unknown[]) {
    return { template };
  },
  setApplicationMenu(menu: { template: unknown[] } | null): void {
    this.applicationMenu = menu;
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
  },
};

export const screen = {
  displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
  getAllDisplays() {
    return this.displays;
  },
  getPrimaryDisplay() {
    return this.displays[0];
  },
};

// Renderer side -------------------------------------------------------------------------------

class FakeIpcRenderer extends EventEmitter {
  readonly invocations: Array<{ channel: string; args: unknown[] }> = [];
  reply: unknown = { ok: true, value: null };
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args: structuredClone(args) });
    return Promise.resolve(this.reply);
  }
}
export const ipcRenderer = new FakeIpcRenderer();

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    if (this.exposed.has(key))
      throw new Error(`Cannot bind an API on top of an existing property on the window object: ${key}`);
    this.exposed.set(key, api);
  },
};

// Test helpers --------------------------------------------------------------------------------

export const fake = {
  /** What ipcRenderer.invoke from `frame` of `sender` does: run main's handler with such an event. */
  async invoke(
    sender: FakeWebContents,
    frame: FakeFrame | null,
    channel: string,
    ...args: unknown[]
  ): Promise<unknown> {
    const handler = ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event = { sender, senderFrame: frame, processId: frame?.processId ?? 0, frameId: frame?.routingId ?? 0 };
    // Arguments cross the process boundary as structured clones, and so does the result.
    const result = await handler(event, ...structuredClone(args));
    return structuredClone(result);
  },
  /** Main sending on `channel` to the preload's ipcRenderer. */
  emitToRenderer(channel: string, ...args: unknown[]): void {
    ipcRenderer.emit(channel, { sender: ipcRenderer, senderId: 0 }, ...structuredClone(args));
  },
  reset(): void {
    BrowserWindow.all.length = 0;
    ipcMain.handlers.clear();
    ipcMain.removeAllListeners();
    session.defaultSession = new FakeSession();
    protocol.privileged.length = 0;
    protocol.handlers.clear();
    app.removeAllListeners();
    app.isPackaged = false;
    app.singleInstanceLock = true;
    app.sandboxEnabled = false;
    app.quitCalled = false;
    safeStorage.available = true;
    safeStorage.backend = 'gnome_libsecret';
    Menu.applicationMenu = null;
    shell.opened.length = 0;
    ipcRenderer.invocations.length = 0;
    ipcRenderer.removeAllListeners();
    ipcRenderer.reply = { ok: true, value: null };
    contextBridge.exposed.clear();
    nativeTheme.removeAllListeners();
    nativeTheme.shouldUseDarkColors = false;
    nativeTheme.shouldUseHighContrastColors = false;
    nativeTheme.themeSource = 'system';
  },
};

export default {
  app,
  BrowserWindow,
  ipcMain,
  session,
  protocol,
  safeStorage,
  Menu,
  shell,
  screen,
  nativeTheme,
  ipcRenderer,
  contextBridge,
};
