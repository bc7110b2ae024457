import { create } from 'zustand';
import type { LogLine, OutboxView } from '../../contract/index';
import { client, errorText } from '../api/client';

const MAX_LINES = 1000;

interface OutboxState {
  /** The page shown, with the latest counts of the whole outbox. */
  outbox: OutboxView | null;
  /** The `after` of each page before the one shown, the first page's (null) first: where "previous" goes back to. */
  earlier: Array<string | null>;
  /** The `after` the page shown was asked with; null on the first page. */
  after: string | null;
  sending: boolean;
  error: string | null;
  lines: LogLine[];
  /** The first page (the oldest entries), the counts, and the recent log. */
  load(): Promise<void>;
  /** The page after the one shown (newer entries), by its cursor. */
  nextPage(): Promise<void>;
  /** The page before the one shown. */
  previousPage(): Promise<void>;
  sendNow(): Promise<void>;
  applyOutbox(outbox: OutboxView): void;
  appendLine(line: LogLine): void;
}

/** The confirmations waiting to reach the service, and the recent log beside them. */
export const useOutbox = create<OutboxState>((set, get) => {
  /** The page after `after`; `earlier` is the path back from it. */
  const showPage = async (after: string | null, earlier: Array<string | null>): Promise<void> => {
    try {
      const outbox = await client().call('outbox.get', after === null ? {} : { after });
      set({ outbox, after, earlier, error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  };
  return {
    outbox: null,
    earlier: [],
    after: null,
    sending: false,
    error: null,
    lines: [],
    async load() {
      try {
        const [outbox, lines] = await Promise.all([
          client().call('outbox.get', {}),
          client().call('logs.recent', { limit: 500 }),
        ]);
        set({ outbox, lines, after: null, earlier: [], error: null });
      } catch (err) {
        set({ error: errorText(err) });
      }
    },
    async nextPage() {
      const { outbox, after, earlier } = get();
      if (!outbox?.nextCursor) return;
      await showPage(outbox.nextCursor, [...earlier, after]);
    },
    async previousPage() {
      const { earlier } = get();
      if (earlier.length === 0) return;
      await showPage(earlier.at(-1)!, earlier.slice(0, -1));
    },
    async sendNow() {
      set({ sending: true, error: null });
      try {
        const outbox = await client().call('outbox.sendNow', {});
        set({ outbox, after: null, earlier: [], sending: false });
      } catch (err) {
        set({ sending: false, error: errorText(err) });
      }
    },
    // The core tells every change with the first page: a reader further on keeps their page and takes the counts.
    applyOutbox: (outbox) =>
      set((s) =>
        s.after === null || !s.outbox
          ? { outbox }
          : {
              outbox: {
                ...s.outbox,
                pendingCount: outbox.pendingCount,
                rejectedCount: outbox.rejectedCount,
                oldestPendingSince: outbox.oldestPendingSince,
                totalCount: outbox.totalCount,
              },
            },
      ),
    appendLine: (line) =>
      set((s) => {
        if (s.lines.some((l) => l.seq === line.seq)) return s;
        const lines = [...s.lines, line];
        return { lines: lines.length > MAX_LINES ? lines.slice(lines.length - MAX_LINES) : lines };
      }),
  };
});
