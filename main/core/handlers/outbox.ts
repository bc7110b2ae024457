import type { Outbox, OutboxEntry, OutboxPageRequest } from '../../engine/outbox/outbox';
import {
  OUTBOX_PAGE_DEFAULT,
  type OutboxChannel,
  type OutboxEntryView,
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

export function outboxHandlers(outbox: Outbox): HandlerGroup<OutboxChannel> {
  return {
    'outbox.get': (input) =>
      outboxView(outbox, { after: input.after ?? null, limit: input.limit ?? OUTBOX_PAGE_DEFAULT }),
    'outbox.sendNow': async () => {
      await outbox.syncNow({ force: true });
      return outboxView(outbox);
    },
  };
}
