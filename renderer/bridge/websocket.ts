import type {
  ChannelInput,
  ChannelResult,
  Channel,
  EventStream,
  EventStreams,
  InvokeOutcome,
  RendererApi,
  WEB_SOCKET_PATH,
  WEB_TOKEN_PARAM,
  WebClientMessage,
  WebServerMessage,
  WireError,
} from '../../contract/index';

/**
 * Web mode's `window.provisioner`: the contract over one WebSocket to the Node process that hosts
 * the core. The per-run token arrives in the page's URL fragment (never sent to a server by the
 * browser); it is moved to sessionStorage and removed from the address bar so it does not end up
 * in bookmarks or screenshots. A dropped socket reconnects; calls made meanwhile wait for it.
 */

/**
 * The server's socket address. The renderer takes only types from the contract (its values would
 * bring zod into the page), so the two texts are restated here and typed as the contract's: the
 * compiler refuses them the day they differ from what the server listens on.
 */
const SOCKET_PATH: typeof WEB_SOCKET_PATH = '/contract';
const TOKEN_PARAM: typeof WEB_TOKEN_PARAM = 'token';

const TOKEN_KEY = 'provisioner.webToken';
const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 4000];

export function takeTokenFromLocation(location: Location, history: History, storage: Storage): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromUrl = fragment.get(TOKEN_PARAM);
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl);
    history.replaceState(null, '', location.pathname + location.search);
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY);
}

export function webSocketUrl(location: Location, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${SOCKET_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

type Pending = { resolve: (outcome: InvokeOutcome<unknown>) => void; text: string; sent: boolean };
type AnyListener = (payload: unknown) => void;

export interface WebSocketBridge extends RendererApi {
  /** 'connected', 'connecting' or 'closed' (the token was refused). */
  readonly state: () => 'connecting' | 'connected' | 'closed';
  onStateChange(listener: (state: 'connecting' | 'connected' | 'closed') => void): () => void;
  close(): void;
}

export function connectWebSocketBridge(
  url: string,
  makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
): WebSocketBridge {
  let socket: WebSocket | null = null;
  let state: 'connecting' | 'connected' | 'closed' = 'connecting';
  let nextId = 1;
  let attempt = 0;
  let stopped = false;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventStream, Set<AnyListener>>();
  const stateListeners = new Set<(s: typeof state) => void>();

  const setState = (next: typeof state) => {
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const open = () => {
    const ws = makeSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      attempt = 0;
      setState('connected');
      for (const call of pending.values()) {
        if (call.sent) continue;
        ws.send(call.text);
        call.sent = true;
      }
    });
    ws.addEventListener('message', (event: MessageEvent) => {
      let message: WebServerMessage;
      try {
        message = JSON.parse(String(event.data)) as WebServerMessage;
      } catch {
        return;
      }
      if (message.type === 'result') {
        pending.get(message.id)?.resolve(message.outcome);
        pending.delete(message.id);
      } else if (message.type === 'event') {
        for (const listener of listeners.get(message.stream) ?? []) listener(message.payload);
      }
    });
    ws.addEventListener('close', (event: CloseEvent) => {
      socket = null;
      // 4401: the server refused the token; trying again cannot help.
      const final = stopped || event.code === 4401;
      // Calls sent on this socket are lost with it (the core may or may not have run them): answer
      // them instead of leaving them hanging. Calls not sent yet wait for the next socket.
      for (const [id, call] of pending) {
        if (!call.sent && !final) continue;
        call.resolve({ ok: false, error: lostConnection(final) });
        pending.delete(id);
      }
      if (final) {
        setState('closed');
        return;
      }
      setState('connecting');
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)] ?? 4000;
      attempt += 1;
      setTimeout(open, delay);
    });
  };
  open();

  return {
    state: () => state,
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      stopped = true;
      socket?.close();
    },
    invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<InvokeOutcome<ChannelResult<C>>> {
      const id = nextId++;
      const message: WebClientMessage = { type: 'invoke', id, channel, input };
      const text = JSON.stringify(message);
      return new Promise((resolve) => {
        const call: Pending = { resolve: resolve as (outcome: InvokeOutcome<unknown>) => void, text, sent: false };
        if (state === 'closed') {
          resolve({ ok: false, error: lostConnection(true) });
          return;
        }
        pending.set(id, call);
        if (socket && socket.readyState === WebSocket.OPEN) {
          socket.send(text);
          call.sent = true;
        }
      });
    },
    on<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void {
      let set = listeners.get(stream);
      if (!set) {
        set = new Set();
        listeners.set(stream, set);
      }
      const wrapped = listener as AnyListener;
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
  };
}

function lostConnection(final: boolean): WireError {
  return {
    code: 'SERVICE_UNREACHABLE',
    message: final
      ? 'This page is not connected to Provisioner: open the address that `npm run web` printed (it carries a new token each run).'
      : 'The connection to the Provisioner process was lost during the call; check the result before trying again.',
    violations: [],
    httpStatus: null,
  };
}
