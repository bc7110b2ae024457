/**
 * The sandboxed preload: the renderer's only way to main. It exposes `window.provisioner` with
 * exactly the contract's RendererApi, `invoke` for known channels, `on` for known event
 * streams and `setNativeTheme` for the shell's own menus, and never ipcRenderer itself nor an IPC
 * event object (whose `sender` is ipcRenderer).
 * Bundled to CommonJS by scripts/build.mjs; a sandboxed preload may require only `electron`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  IPC_NATIVE_THEME_CHANNEL,
  nativeThemeRefusal,
  isChannel,
  isEventStream,
  isNativeThemeSource,
  type NativeThemeSource,
  type Channel,
  type EventStream,
  type EventStreams,
  type InvokeOutcome,
  type RendererApi,
} from '../contract/index';

type Listener = (payload: unknown) => void;
const listeners = new Map<EventStream, Set<Listener>>();

// One IPC listener for all streams: main sends (stream, payload) on the event channel.
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, stream: unknown, payload: unknown) => {
  if (!isEventStream(stream)) return;
  for (const listener of listeners.get(stream) ?? []) {
    try {
      listener(payload);
    } catch (err) {
      console.error(`A listener of ${stream} threw`, err);
    }
  }
});

function invoke(channel: Channel, input: unknown): Promise<InvokeOutcome<unknown>> {
  if (!isChannel(channel)) {
    const name = JSON.stringify(String(channel)).slice(0, 80);
    return Promise.resolve({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL', message: `Unknown channel ${name}`, violations: [], httpStatus: null },
    });
  }
  return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, channel, input) as Promise<InvokeOutcome<unknown>>;
}

function on(stream: EventStream, listener: Listener): () => void {
  if (!isEventStream(stream))
    throw new TypeError(`Unknown event stream ${JSON.stringify(String(stream)).slice(0, 80)}`);
  if (typeof listener !== 'function') throw new TypeError('listener must be a function');
  let set = listeners.get(stream);
  if (!set) listeners.set(stream, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/** The shell's menus and dialogs in the app's theme; a value it does not take never reaches main. */
async function setNativeTheme(source: NativeThemeSource): Promise<void> {
  if (!isNativeThemeSource(source)) throw new TypeError(nativeThemeRefusal(source));
  await ipcRenderer.invoke(IPC_NATIVE_THEME_CHANNEL, source);
}

const api: RendererApi = {
  invoke: invoke as RendererApi['invoke'],
  on: on as <S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void) => () => void,
  setNativeTheme,
};

contextBridge.exposeInMainWorld('provisioner', api);
