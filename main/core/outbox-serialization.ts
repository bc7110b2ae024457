import type { Outbox, SyncReport } from '../provisioning/outbox';

/**
 * Workaround, to remove once main/provisioning/outbox.ts is fixed: Outbox.syncNow() shares passes
 * between overlapping calls, but after two overlapping rounds it keeps answering every later call
 * with the report of a finished pass and never sends again (its `running` is never reset after a
 * queued pass ran). Jobs on several devices confirm at the same time, so the app hit this: a
 * confirmation stayed in the outbox. Here every syncNow (the outbox's own loop, deliver(), "Send
 * now") waits for the previous one, so the overlap never happens; each call still gets a pass
 * that starts after it was made, which is what deliver() relies on.
 */
export function serializeSyncNow(outbox: Outbox): void {
  const original = outbox.syncNow.bind(outbox);
  let last: Promise<unknown> = Promise.resolve();
  outbox.syncNow = (options?: { force?: boolean }): Promise<SyncReport> => {
    const next = last.catch(() => undefined).then(() => original(options));
    last = next;
    return next;
  };
}
