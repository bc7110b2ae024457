import { create } from 'zustand';
import type { LogLine, OutboxView } from '../../contract/index';
import { client, errorText } from '../api/client';

const MAX_LINES = 1000;

interface OutboxState {
  outbox: OutboxView | null;
  sending: boolean;
  error: string | null;
  lines: LogLine[];
  load(): Promise<void>;
  sendNow(): Promise<void>;
  applyOutbox(outbox: OutboxView): void;
  appendLine(line: LogLine): void;
}

/** The confirmations waiting to reach the service, and the recent log beside them. */
export const useOutbox = create<OutboxState>((set) => ({
  outbox: null,
  sending: false,
  error: null,
  lines: [],
  async load() {
    try {
      const [outbox, lines] = await Promise.all([
        client().call('outbox.get', {}),
        client().call('logs.recent', { limit: 500 }),
      ]);
      set({ outbox, lines, error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async sendNow() {
    set({ sending: true, error: null });
    try {
      set({ outbox: await client().call('outbox.sendNow', {}), sending: false });
    } catch (err) {
      set({ sending: false, error: errorText(err) });
    }
  },
  applyOutbox: (outbox) => set({ outbox }),
  appendLine: (line) =>
    set((s) => {
      if (s.lines.some((l) => l.seq === line.seq)) return s;
      const lines = [...s.lines, line];
      return { lines: lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines };
    }),
}));
