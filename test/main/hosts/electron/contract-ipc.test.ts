import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CoreError,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  type Channel,
  type CoreHost,
  type EventStream,
  type EventStreams,
} from '../../../../contract/index';
import { BrowserWindow, fake, ipcMain } from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

const { registerContractIpc } = await import('../../../../main/hosts/electron/contract-ipc');
const { KnownSecrets, REDACTED } = await import('../../../../main/hosts/known-secrets');

const API_KEY = 'pk_live_7f3c9a1e5b2d4f6a8c0e1b3d5f7a9c2e';

/** A core that records what reaches it and lets a test publish events and choose answers. */
class RecordingCore implements CoreHost {
  readonly calls: Array<{ channel: Channel; input: unknown }> = [];
  readonly listeners = new Map<EventStream, Set<(payload: never) => void>>();
  answer: (channel: Channel, input: unknown) => unknown = () => ({ fine: true });

  async invoke(channel: Channel, input: unknown): Promise<never> {
    this.calls.push({ channel, input });
    return this.answer(channel, input) as never;
  }
  subscribe<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void {
    let set = this.listeners.get(stream);
    if (!set) this.listeners.set(stream, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }
  publish<S extends EventStream>(stream: S, payload: EventStreams[S]): void {
    for (const listener of this.listeners.get(stream) ?? []) (listener as (p: EventStreams[S]) => void)(payload);
  }
}

let core: RecordingCore;
let window: BrowserWindow;
let secrets: InstanceType<typeof KnownSecrets>;
let logs: string[];
let stop: () => void;

beforeEach(async () => {
  fake.reset();
  core = new RecordingCore();
  window = new BrowserWindow({});
  await window.loadURL('app://provisioner/index.html');
  secrets = new KnownSecrets();
  logs = [];
  stop = registerContractIpc({ core, getWindow: () => window as never, secrets, log: (m) => logs.push(m) });
});

const fromOurWindow = (channel: unknown, input?: unknown) =>
  fake.invoke(window.webContents, window.webContents.mainFrame, IPC_INVOKE_CHANNEL, channel, input);

describe('contract over IPC: who may call', () => {
  it('accepts a call from the main frame of our window and hands the parsed input to the core', async () => {
    core.answer = () => [{ linkId: 'serial:/dev/pts/3' }];
    const outcome = await fromOurWindow('devices.list', { search: 'SRCP' });
    expect(outcome).toEqual({ ok: true, value: [{ linkId: 'serial:/dev/pts/3' }] });
    // defaults from the contract's schema are filled in before the core sees the input
    expect(core.calls).toEqual([{ channel: 'devices.list', input: { search: 'SRCP', page: 1, limit: 20 } }]);
  });

  it('refuses a call from a subframe of our window', async () => {
    const frame = window.webContents.createSubframe('app://provisioner/embedded.html');
    await expect(fake.invoke(window.webContents, frame, IPC_INVOKE_CHANNEL, 'session.get', {})).rejects.toThrow(
      /only from the Provisioner window/,
    );
    expect(core.calls).toEqual([]);
    expect(logs.join('\n')).toMatch(/untrusted sender.*subframe/);
  });

  it('refuses a call from another window, even one showing our origin', async () => {
    const other = new BrowserWindow({});
    await other.loadURL('app://provisioner/index.html');
    await expect(
      fake.invoke(other.webContents, other.webContents.mainFrame, IPC_INVOKE_CHANNEL, 'session.get', {}),
    ).rejects.toThrow(/Refused/);
    expect(core.calls).toEqual([]);
  });

  it('refuses a call once our window shows another origin', async () => {
    for (const url of [
      'https://evil.example/',
      'file:///tmp/index.html',
      'app://elsewhere/index.html',
      'app://user@provisioner/index.html',
    ]) {
      await window.loadURL(url);
      await expect(fromOurWindow('session.get', {}), url).rejects.toThrow(/Refused/);
    }
    expect(core.calls).toEqual([]);
  });

  it('refuses a call whose frame is gone, and any call while there is no window', async () => {
    await expect(fake.invoke(window.webContents, null, IPC_INVOKE_CHANNEL, 'session.get', {})).rejects.toThrow(
      /Refused/,
    );
    window.destroy();
    await expect(
      fake.invoke(window.webContents, window.webContents.mainFrame, IPC_INVOKE_CHANNEL, 'session.get', {}),
    ).rejects.toThrow(/Refused/);
    expect(core.calls).toEqual([]);
  });
});

describe('contract over IPC: what may be said', () => {
  it('rejects an invalid payload with a clear error before the core sees it', async () => {
    const outcome = (await fromOurWindow('devices.list', { limit: 500, search: 42 })) as {
      ok: false;
      error: { code: string; message: string; violations: Array<{ field: string }> };
    };
    expect(outcome.ok).toBe(false);
    expect(outcome.error.code).toBe('INVALID_INPUT');
    expect(outcome.error.message).toMatch(/^Invalid input for devices\.list: /);
    expect(outcome.error.message).toMatch(/limit/);
    expect(outcome.error.message).toMatch(/search/);
    expect(outcome.error.violations.map((v) => v.field).sort()).toEqual(['limit', 'search']);
    expect(core.calls).toEqual([]);
  });

  it('rejects unknown fields (the schemas are strict) and unknown channels', async () => {
    const extra = (await fromOurWindow('session.get', { sneaky: true })) as { ok: boolean; error: { code: string } };
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const unknown = (await fromOurWindow('fs.readFile', { path: '/etc/passwd' })) as {
      ok: boolean;
      error: { code: string; message: string };
    };
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    const prototype = (await fromOurWindow('__proto__', {})) as { ok: boolean; error: { code: string } };
    expect(prototype).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(core.calls).toEqual([]);
  });

  it('turns a core failure into plain error data', async () => {
    core.answer = () => {
      throw new CoreError('NOT_ALLOWED', 'Your key (Operator) may not register devices.', [], 403);
    };
    const outcome = await fromOurWindow('devices.register', { serialNumber: 'SN-1', name: 'Pump 1' });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'NOT_ALLOWED',
        message: 'Your key (Operator) may not register devices.',
        violations: [],
        httpStatus: 403,
      },
    });
  });

  it('registers exactly one handler, and removes it when stopped', () => {
    expect([...ipcMain.handlers.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    stop();
    expect(ipcMain.handlers.size).toBe(0);
    expect([...core.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});

describe('contract over IPC: events', () => {
  it('forwards every event stream to our window only', () => {
    const other = new BrowserWindow({});
    core.publish('outbox.changed', {
      entries: [],
      pendingCount: 0,
      rejectedCount: 0,
      oldestPendingSince: null,
      totalCount: 0,
      offset: 0,
      limit: 100,
      nextCursor: null,
    });
    core.publish('logs.line', { seq: 1, at: '2026-01-01T00:00:00Z', level: 'info', source: 'test', message: 'hello' });
    expect(window.webContents.sent.map((m) => [m.channel, m.args[0]])).toEqual([
      [IPC_EVENT_CHANNEL, 'outbox.changed'],
      [IPC_EVENT_CHANNEL, 'logs.line'],
    ]);
    expect(other.webContents.sent).toEqual([]);
  });

  it('sends nothing while the window shows another origin or is gone', async () => {
    await window.loadURL('https://evil.example/');
    core.publish('logs.line', { seq: 1, at: 'x', level: 'info', source: 'test', message: 'm' });
    window.destroy();
    core.publish('logs.line', { seq: 2, at: 'x', level: 'info', source: 'test', message: 'm' });
    expect(window.webContents.sent).toEqual([]);
  });
});

describe('the API key never reaches the renderer', () => {
  const signIn = { serviceUrl: 'https://service.example', orgId: 'org-1', apiKey: API_KEY, remember: true };

  it('is withheld from results, errors and events even when the core slips', async () => {
    core.answer = (channel) => {
      if (channel === 'session.signIn')
        return { status: 'signedIn', keyName: 'bench', debug: `Authorization: Bearer ${API_KEY}` };
      if (channel === 'support.report') throw new CoreError('INTERNAL', `request failed with key ${API_KEY}`);
      return { nested: [{ deep: { key: API_KEY } }] };
    };
    const everything: unknown[] = [];
    everything.push(await fromOurWindow('session.signIn', signIn));
    everything.push(await fromOurWindow('support.report', {}));
    everything.push(await fromOurWindow('session.get', {}));
    core.publish('logs.line', {
      seq: 9,
      at: 'x',
      level: 'debug',
      source: 'cloud',
      message: `GET /v1/version x-api-key=${API_KEY}`,
    });
    everything.push(...window.webContents.sent);

    const text = JSON.stringify(everything);
    expect(text).not.toContain(API_KEY);
    expect(text).toContain(REDACTED);
    // the core itself got the real key: redaction is only on the way out
    expect(core.calls.find((c) => c.channel === 'session.signIn')?.input).toMatchObject({ apiKey: API_KEY });
  });

  it('withholds a key the secret store loaded at start, before any sign-in', async () => {
    secrets.add(API_KEY);
    core.publish('session.changed', {
      status: 'signedOut',
      lastServiceUrl: `https://x/?k=${API_KEY}`,
      lastOrgId: null,
    });
    expect(JSON.stringify(window.webContents.sent)).not.toContain(API_KEY);
  });

  it('withholds the key from an invalid sign-in too (its error messages quote no input)', async () => {
    const outcome = await fromOurWindow('session.signIn', { ...signIn, serviceUrl: `not a url ${API_KEY}` });
    expect(JSON.stringify(outcome)).not.toContain(API_KEY);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
