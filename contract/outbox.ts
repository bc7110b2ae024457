import { command, noInput, query } from './channel-spec';

export interface OutboxEntryView {
  id: string;
  kind: 'firmware' | 'configuration';
  serialNumber: string;
  serviceUrl: string;
  orgId: string;
  state: 'pending' | 'rejected';
  createdAt: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** One line: what is being confirmed (version or syncId and success/failure). */
  summary: string;
}

export interface OutboxView {
  entries: OutboxEntryView[];
  pendingCount: number;
  rejectedCount: number;
  oldestPendingSince: string | null;
}

/** The confirmations waiting to reach the service. */
export const OUTBOX_CHANNELS = {
  'outbox.get': query(noInput).returns<OutboxView>(),
  'outbox.sendNow': command(noInput).returns<OutboxView>(),
} as const;
export type OutboxChannel = keyof typeof OUTBOX_CHANNELS;
