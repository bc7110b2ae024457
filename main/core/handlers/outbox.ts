import type { Outbox, OutboxEntry, OutboxPageRequest } from '../../engine/outbox/outbox';
import {
  OUTBOX_PAGE_DEFAULT,
  type OutboxChannel,
  type OutboxEntryView,
  type OutboxSyncView,
  type OutboxView,
} from '../../../contract/index';
import type { HandlerGroup } from './types';
import { confirmationSummaryOf, confirmationSummaryText } from '../../../domain/confirmation-summary';

export function outboxEntryView(entry: OutboxEntry): OutboxEntryView {
  const confirms = confirmationSummaryOf(entry);
  return {
    id: entry.id,
    kind: entry.kind,
    serialNumber: entry.serialNumber,
    serviceUrl: entry.serviceUrl,
    orgId: entry.orgId,
    state: entry.state,
    createdAt: entry.createdAt,
    attempts: entry.attempts,
    lastError: entry.lastError?.message ?? null,
    nextAttemptAt: entry.state === 'pending' ? entry.nextAttemptAt : null,
    summary: confirmationSummaryText(confirms),
    confirms,
  };
}

/**
 * The counts of the whole outbox and one page of its entries (the first unless `after` says
 * which): the Outbox screen's view. Only that page's files are read, so it answers as fast with
 * 10,000 waiting as with 10 (docs/performance.md).
 */
export async function outboxView(
  outbox: Outbox,
  request: OutboxPageRequest = { limit: OUTBOX_PAGE_DEFAULT },
): Promise<OutboxView> {
  const page = await outbox.page(request);
  return {
    entries: page.entries.map(outboxEntryView),
    pendingCount: page.summary.count,
    rejectedCount: page.summary.rejected,
    oldestPendingSince: page.summary.oldestCreatedAt,
    totalCount: page.total,
    offset: page.offset,
    limit: request.limit,
    nextCursor: page.nextCursor,
  };
}

/** Where the outbox's keys come from: whether one is at hand for a service, and (for a host that opens them on demand) opening them. */
export interface OutboxKeys {
  /** Whether a client for the service and organization is at hand now. */
  hasClient: (serviceUrl: string, orgId: string) => boolean;
  /** Before a pass: open what clients the host can for the services and organizations the entries name (the CLI's login, the local workspace). */
  open?: (addresses: ReadonlyArray<{ serviceUrl: string; orgId: string }>) => Promise<void>;
}

/**
 * Sends every entry now and says what waits and why: per service without a key, the entries
 * waiting for a sign-in there; with a key, each entry of this pass that did not get through.
 */
async function syncView(outbox: Outbox, keys: OutboxKeys): Promise<OutboxSyncView> {
  const addresses = new Map<string, { serviceUrl: string; orgId: string }>();
  for (const { serviceUrl, orgId } of await outbox.list())
    addresses.set(`${serviceUrl}\u0000${orgId}`, { serviceUrl, orgId });
  await keys.open?.([...addresses.values()]);
  const report = await outbox.syncNow({ force: true });
  const pending = await outbox.pending();
  const remaining = await outbox.list();
  const hasClient = (entry: OutboxEntry) => keys.hasClient(entry.serviceUrl, entry.orgId);
  const waiting = new Map<string, { serviceUrl: string; orgId: string; count: number }>();
  for (const entry of remaining.filter((e) => e.state === 'pending' && !hasClient(e))) {
    const where = `${entry.orgId}@${entry.serviceUrl}`;
    const known = waiting.get(where) ?? { serviceUrl: entry.serviceUrl, orgId: entry.orgId, count: 0 };
    waiting.set(where, { ...known, count: known.count + 1 });
  }
  const tried = new Set([...report.retrying, ...report.rejected]);
  return {
    ...report,
    pending,
    waitingForSignIn: [...waiting.values()],
    notSent: remaining.filter((e) => hasClient(e) && tried.has(e.id)).map(outboxEntryView),
  };
}

export function outboxHandlers(outbox: Outbox, keys: OutboxKeys): HandlerGroup<OutboxChannel> {
  return {
    'outbox.get': (input) =>
      outboxView(outbox, { after: input.after ?? null, limit: input.limit ?? OUTBOX_PAGE_DEFAULT }),
    'outbox.sendNow': async () => {
      await outbox.syncNow({ force: true });
      return outboxView(outbox);
    },
    'outbox.records': async (input) => {
      const page = await outbox.page({ after: input.after ?? null, limit: input.limit ?? OUTBOX_PAGE_DEFAULT });
      return { entries: page.entries, nextCursor: page.nextCursor };
    },
    'outbox.sync': () => syncView(outbox, keys),
    'outbox.pending': () => outbox.pending(),
  };
}
