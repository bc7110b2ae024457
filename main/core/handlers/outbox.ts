import type { Outbox, OutboxEntry } from '../../engine/outbox/outbox';
import type { OutboxChannel, OutboxEntryView, OutboxView } from '../../../contract/index';
import type { HandlerGroup } from './types';

export function outboxEntryView(entry: OutboxEntry): OutboxEntryView {
  // An observation reports what a device was seen running, which no job of ours applied.
  const done = entry.payload.reason === 'observation' ? 'observed' : 'applied';
  const summary =
    entry.kind === 'firmware'
      ? entry.payload.firmwareFileSuccessfullyDeployed
        ? `Firmware ${entry.payload.firmwareVersion ?? ''} ${done}`
        : `Firmware failed: ${entry.payload.error ?? 'no reason given'}`
      : entry.payload.configurationFileSuccessfullyDeployed
        ? `Configuration ${entry.payload.syncId.slice(0, 8)} ${done}`
        : `Configuration failed: ${entry.payload.error ?? 'no reason given'}`;
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
    summary,
  };
}

export async function outboxView(outbox: Outbox): Promise<OutboxView> {
  // One reading of the entry files for both: with 10,000 waiting each reading takes seconds.
  const { entries, summary } = await outbox.overview();
  return {
    entries: entries.map(outboxEntryView),
    pendingCount: summary.count,
    rejectedCount: summary.rejected,
    oldestPendingSince: summary.oldestCreatedAt,
  };
}

export function outboxHandlers(outbox: Outbox): HandlerGroup<OutboxChannel> {
  return {
    'outbox.get': () => outboxView(outbox),
    'outbox.sendNow': async () => {
      await outbox.syncNow({ force: true });
      return outboxView(outbox);
    },
  };
}
