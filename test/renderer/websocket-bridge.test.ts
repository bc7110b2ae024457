import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectWebSocketBridge, takeTokenFromLocation, webSocketUrl } from '../../renderer/bridge/websocket';

/** Just enough of a browser WebSocket for the bridge: listeners, send, and a server side the test plays. */
class FakeSocket {
  static readonly OPEN = 1;
  readyState = 0;
  readonly sent: unknown[] = [];
  private readonly listeners = new Map<string, ((event: unknown) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }
  close(): void {
    this.serverClose(1000);
  }
  serverOpen(): void {
    this.readyState = 1;
    this.fire('open', {});
  }
  serverSend(message: unknown): void {
    this.fire('message', { data: JSON.stringify(message) });
  }
  serverClose(code: number): void {
    this.readyState = 3;
    this.fire('close', { code });
  }
  private fire(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}

let sockets: FakeSocket[];
beforeEach(() => {
  sockets = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const connect = () =>
  connectWebSocketBridge('ws://127.0.0.1:1/contract?token=t', (url) => {
    const socket = new FakeSocket(url);
    sockets.push(socket);
    return socket as unknown as WebSocket;
  });

describe('the WebSocket bridge', () => {
  it('takes the token from the fragment once and removes it from the address bar', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as unknown as Storage;
    const replaced: string[] = [];
    const history = {
      replaceState: (_s: unknown, _t: string, url: string) => void replaced.push(url),
    } as unknown as History;
    const location = {
      hash: '#token=abc%2B1',
      pathname: '/',
      search: '',
      host: '127.0.0.1:5',
      protocol: 'http:',
    } as Location;
    expect(takeTokenFromLocation(location, history, storage)).toBe('abc+1');
    expect(replaced).toEqual(['/']);
    // A reload has no fragment any more: the token comes from this tab's storage.
    expect(takeTokenFromLocation({ ...location, hash: '' }, history, storage)).toBe('abc+1');
    expect(webSocketUrl(location, 'abc+1')).toBe('ws://127.0.0.1:5/contract?token=abc%2B1');
  });

  it('sends calls made before the socket opened, and answers each by its id', async () => {
    const bridge = connect();
    const answer = bridge.invoke('workbench.jobs', {});
    expect(sockets[0]!.sent).toEqual([]);
    sockets[0]!.serverOpen();
    expect(sockets[0]!.sent).toEqual([{ type: 'invoke', id: 1, channel: 'workbench.jobs', input: {} }]);
    sockets[0]!.serverSend({ type: 'result', id: 1, outcome: { ok: true, value: [] } });
    await expect(answer).resolves.toEqual({ ok: true, value: [] });
  });

  it('delivers events to the listeners of their stream', () => {
    const bridge = connect();
    const lines: unknown[] = [];
    const off = bridge.on('logs.line', (line) => lines.push(line.message));
    sockets[0]!.serverOpen();
    sockets[0]!.serverSend({ type: 'event', stream: 'logs.line', payload: { message: 'one' } });
    sockets[0]!.serverSend({ type: 'event', stream: 'jobs.progress', payload: [] });
    off();
    sockets[0]!.serverSend({ type: 'event', stream: 'logs.line', payload: { message: 'two' } });
    expect(lines).toEqual(['one']);
  });

  it('answers calls lost with a dropped socket, reconnects, and stops for good on a refused token', async () => {
    const bridge = connect();
    sockets[0]!.serverOpen();
    const lost = bridge.invoke('workbench.jobs', {});
    sockets[0]!.serverClose(1006);
    await expect(lost).resolves.toMatchObject({ ok: false, error: { code: 'SERVICE_UNREACHABLE' } });
    expect(bridge.state()).toBe('connecting');
    await vi.advanceTimersByTimeAsync(300);
    expect(sockets).toHaveLength(2);
    sockets[1]!.serverClose(4401);
    expect(bridge.state()).toBe('closed');
    await expect(bridge.invoke('workbench.jobs', {})).resolves.toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('npm run web') },
    });
  });
});
