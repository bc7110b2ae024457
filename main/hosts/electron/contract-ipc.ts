import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import {
  EVENT_STREAMS,
  IPC_EVENT_CHANNEL,
  IPC_INVOKE_CHANNEL,
  invokeForWire,
  type CoreHost,
  type InvokeOutcome,
} from '../../../contract/index';
import { isAppUrl } from './app-origin';
import type { KnownSecrets } from '../known-secrets';
import { describeSender, isTrustedSender } from './trusted-sender';

export interface ContractIpcOptions {
  core: CoreHost;
  /** Our one window, or null while there is none: nothing else may call in or hear events. */
  getWindow: () => BrowserWindow | null;
  secrets: KnownSecrets;
  log?: (message: string) => void;
}

/**
 * Carries the contract over Electron IPC: one invoke channel for calls, one event channel for the
 * core's streams. A call is accepted only from our window's main frame, its input is parsed with
 * the channel's zod schema before the core sees it (invokeForWire), and what goes back, like
 * every event, is scrubbed of the API key. Returns the undo, for tests and shutdown.
 */
export function registerContractIpc({ core, getWindow, secrets, log = console.warn }: ContractIpcOptions): () => void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event: IpcMainInvokeEvent, channel: unknown, input: unknown): Promise<InvokeOutcome<unknown>> => {
      if (!isTrustedSender(event, getWindow())) {
        const who = describeSender(event);
        log(`IPC: refused a call to ${String(channel).slice(0, 60)} from an untrusted sender (${who})`);
        throw new Error('Refused: IPC is accepted only from the Provisioner window');
      }
      secrets.noteInvocation(channel, input);
      return secrets.scrub(await invokeForWire(core, channel, input));
    },
  );

  const unsubscribes = EVENT_STREAMS.map((stream) =>
    core.subscribe(stream, (payload) => {
      const window = getWindow();
      if (!window || window.isDestroyed() || !isAppUrl(window.webContents.getURL())) return;
      window.webContents.send(IPC_EVENT_CHANNEL, stream, secrets.scrub(payload));
    }),
  );

  return () => {
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
