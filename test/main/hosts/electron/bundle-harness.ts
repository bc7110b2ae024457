/**
 * Runs the built main bundle (dist/main/electron.cjs) in plain Node with the fake `electron`
 * module answering its require: the real core, the real embedded service, the real IPC handler.
 * It then behaves like the renderer of the window the bundle opened and prints one JSON report.
 * Started by main-bundle.test.ts: `tsx test/main/hosts/electron/bundle-harness.ts <userDataDir>`.
 */
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../../../contract/index';
import * as fakeElectron from './fake-electron';

const { app, BrowserWindow, fake, protocol } = fakeElectron;
const root = join(import.meta.dirname, '..', '..', '..', '..');
const userData = process.argv[2];
if (!userData) throw new Error('usage: bundle-harness.ts <userDataDir>');

app.userData = userData;
app.appPath = root;

// The bundle keeps `electron` external: answer its require with the fake.
type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Load };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = function load(request, parent, isMain) {
  return request === 'electron' ? fakeElectron : originalLoad.call(this, request, parent, isMain);
};

// Every API key the core sends to a service (the local workspace's generated one included), to
// prove none of them reaches the renderer.
const keysUsed = new Set<string>();
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const authorization = new Headers(init?.headers).get('authorization');
  if (authorization?.startsWith('Bearer ')) keysUsed.add(authorization.slice('Bearer '.length));
  return realFetch(input, init);
};

async function waitFor<T>(what: string, probe: () => T | undefined | null, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  createRequire(import.meta.url)(join(root, 'dist', 'main', 'electron.cjs'));
  const window = await waitFor('the window', () => BrowserWindow.getAllWindows()[0]);
  const contents = window.webContents;
  const call = (channel: string, input: unknown = {}) =>
    fake.invoke(contents, contents.mainFrame, IPC_INVOKE_CHANNEL, channel, input);

  const rendererResponse = await protocol.handlers.get('app')?.(new Request('app://provisioner/index.html'));
  const results = {
    appInfo: await call('app.info'),
    signedOut: await call('session.get'),
    invalid: await call('devices.list', { limit: 1000 }),
    workspace: await call('session.useLocalWorkspace'),
    devices: await call('devices.list', {}),
    support: await call('support.report'),
    logs: await call('logs.recent', {}),
  };
  const everything = JSON.stringify([results, contents.sent]);
  const report = {
    ...results,
    url: contents.getURL(),
    webPreferences: window.options.webPreferences,
    indexStatus: rendererResponse?.status ?? null,
    indexCsp: rendererResponse?.headers.get('content-security-policy') ?? null,
    subframe: await fake
      .invoke(contents, contents.createSubframe('app://provisioner/x.html'), IPC_INVOKE_CHANNEL, 'session.get', {})
      .then(
        () => 'accepted',
        (err: Error) => err.message,
      ),
    sentChannels: [...new Set(contents.sent.map((m) => m.channel))],
    sentStreams: [...new Set(contents.sent.filter((m) => m.channel === IPC_EVENT_CHANNEL).map((m) => m.args[0]))],
    keysUsed: keysUsed.size,
    keyReachedRenderer: [...keysUsed].some((key) => everything.includes(key)),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);

  app.emit('before-quit', { preventDefault() {} });
  await waitFor('the core to close', () => app.quitCalled, 15_000);
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
