import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CHANNELS,
  EVENT_STREAMS,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  IPC_NATIVE_THEME_CHANNEL,
  type RendererApi,
} from '../../contract/index';
import { contextBridge, fake, ipcRenderer } from '../main/hosts/electron/fake-electron';

vi.mock('electron', () => import('../main/hosts/electron/fake-electron'));

let api: RendererApi;

beforeAll(async () => {
  fake.reset();
  await import('../../preload/preload');
  api = contextBridge.exposed.get('provisioner') as RendererApi;
});

describe('preload', () => {
  it('exposes window.provisioner with invoke, on and setNativeTheme, and nothing else', () => {
    expect([...contextBridge.exposed.keys()]).toEqual(['provisioner']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on', 'setNativeTheme']);
    for (const value of Object.values(api)) {
      expect(value).not.toBe(ipcRenderer);
      expect(typeof value).toBe('function');
    }
  });

  it('invokes known channels over the one invoke channel', async () => {
    ipcRenderer.reply = { ok: true, value: { status: 'signedOut', lastServiceUrl: null, lastOrgId: null } };
    const outcome = await api.invoke('session.get', {});
    expect(outcome).toEqual(ipcRenderer.reply);
    expect(ipcRenderer.invocations.at(-1)).toEqual({ channel: IPC_INVOKE_CHANNEL, args: ['session.get', {}] });
  });

  it('lets every contract channel through, and no other name', async () => {
    for (const channel of CHANNELS) await api.invoke(channel as never, {} as never);
    expect(ipcRenderer.invocations.map((call) => call.args[0])).toEqual(expect.arrayContaining([...CHANNELS]));
    const before = ipcRenderer.invocations.length;
    for (const name of ['fs.readFile', 'provisioner:invoke', '__proto__', 'constructor', 'toString', '']) {
      const outcome = await api.invoke(name as never, {} as never);
      expect(outcome, name).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
    expect(ipcRenderer.invocations.length).toBe(before);
  });

  it('delivers a stream payload, and only the payload, to its listeners until unsubscribed', () => {
    const received: unknown[][] = [];
    const off = api.on('logs.line', (...args: unknown[]) => received.push(args));
    const line = { seq: 1, at: '2026-01-01T00:00:00Z', level: 'info', source: 'core', message: 'hello' };
    fake.emitToRenderer(IPC_EVENT_CHANNEL, 'logs.line', line);
    fake.emitToRenderer(IPC_EVENT_CHANNEL, 'outbox.changed', { entries: [] });
    expect(received).toEqual([[line]]);
    off();
    fake.emitToRenderer(IPC_EVENT_CHANNEL, 'logs.line', line);
    expect(received).toHaveLength(1);
  });

  it('accepts every contract stream and refuses other names', () => {
    for (const stream of EVENT_STREAMS) api.on(stream, () => {})();
    expect(() => api.on('ipc.raw' as never, () => {})).toThrow(/Unknown event stream/);
    expect(() => api.on('__proto__' as never, () => {})).toThrow(/Unknown event stream/);
  });

  it('ignores event messages for unknown streams and survives a throwing listener', () => {
    const seen: unknown[] = [];
    api.on('outbox.changed', () => {
      throw new Error('listener bug');
    });
    api.on('outbox.changed', (payload) => seen.push(payload));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.emitToRenderer(IPC_EVENT_CHANNEL, 'not.a.stream', { x: 1 });
    fake.emitToRenderer(IPC_EVENT_CHANNEL, 'outbox.changed', { pendingCount: 1 });
    error.mockRestore();
    expect(seen).toEqual([{ pendingCount: 1 }]);
  });

  it('sends a native theme on its own channel, and refuses a value the shell does not take without sending it', async () => {
    await api.setNativeTheme!('dark');
    expect(ipcRenderer.invocations.at(-1)).toEqual({ channel: IPC_NATIVE_THEME_CHANNEL, args: ['dark'] });
    const before = ipcRenderer.invocations.length;
    for (const value of ['high-contrast', 'provisioner:invoke', '__proto__', 7, null]) {
      await expect(api.setNativeTheme!(value as never), String(value)).rejects.toThrow(
        /^Invalid native theme .*: use one of system, light, dark$/,
      );
    }
    expect(ipcRenderer.invocations.length).toBe(before);
  });
});
