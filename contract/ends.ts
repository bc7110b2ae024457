import {
  isChannel,
  parseChannelInput,
  type Channel,
  type ChannelInput,
  type ChannelResult,
  type ParsedInput,
} from './channels';
import { CoreError, toWireError, type InvokeOutcome } from './errors';
import type { NativeThemeSource } from './electron-ipc';
import type { EventStream, EventStreams } from './events';

/** What main (Electron) and the web server host: the core, behind the contract. */
export interface CoreHost {
  /** `input` is already parsed with the channel's schema (use `parseChannelInput`). Rejects with a `CoreError`. */
  invoke<C extends Channel>(channel: C, input: ParsedInput<C>): Promise<ChannelResult<C>>;
  subscribe<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
}

/** What `window.provisioner` exposes (Electron preload, or renderer/bridge/websocket.ts in web mode). */
export interface RendererApi {
  invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<InvokeOutcome<ChannelResult<C>>>;
  on<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
  /**
   * Electron only (the preload; web mode has no native menus): the shell's own menus and dialogs
   * in this appearance (electron-ipc.ts, IPC_NATIVE_THEME_CHANNEL).
   */
  setNativeTheme?(source: NativeThemeSource): Promise<void>;
}

/**
 * The whole receiving end of one call, for any transport: check the channel, parse the input,
 * run it, and turn every failure into plain data. Never rejects.
 */
export async function invokeForWire(
  host: CoreHost,
  channel: unknown,
  rawInput: unknown,
): Promise<InvokeOutcome<unknown>> {
  try {
    if (!isChannel(channel))
      throw new CoreError('UNKNOWN_CHANNEL', `Unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`);
    const input = parseChannelInput(channel, rawInput);
    const value = await host.invoke(channel, input);
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: toWireError(err) };
  }
}
