import { z } from 'zod';
import type { ConfirmationSummary } from '../domain/confirmation-summary';
import type { ConfigurationConfirmationInput, FirmwareConfirmationInput } from '../domain/confirmations';
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
  /** One line: what is being confirmed (version or syncId and success/failure), in English. */
  summary: string;
  /** `summary` as codes and values, for the screen to say in the reader's language (confirmationSummaryText); absent from an older core. */
  confirms?: ConfirmationSummary;
}

/**
 * The outbox as the Outbox screen shows it: the counts of every entry and one page of them,
 * pending and rejected together, oldest first. With 10,000 waiting, only the page is read.
 */
export interface OutboxView {
  /** One page (at most the asked limit; the oldest first unless a cursor was given). */
  entries: OutboxEntryView[];
  pendingCount: number;
  rejectedCount: number;
  oldestPendingSince: string | null;
  /** Pending and rejected entries in all, on every page. */
  totalCount: number;
  /** How many entries come before this page: the first page's is 0. */
  offset: number;
  /** The most entries this page could hold (the asked limit). */
  limit: number;
  /** Pass as `after` to get the page after this one; null on the last page. */
  nextCursor: string | null;
}

/** Entries per page when the caller does not say, and the most one page may hold. */
export const OUTBOX_PAGE_DEFAULT = 100;
export const OUTBOX_PAGE_MAX = 500;

/**
 * Which page of the outbox to read. `after` is the previous page's `nextCursor` (an entry id:
 * letters, digits and dashes); without it the page starts at the oldest entry. Without `limit` a
 * page holds OUTBOX_PAGE_DEFAULT, so `{}` still asks for what the screen first shows.
 */
export const outboxPageInput = z
  .object({
    after: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,100}$/, {
        message: "not an outbox cursor: pass a page's nextCursor as it came (letters, digits and dashes, at most 100)",
      })
      .nullish(),
    limit: z
      .number({ message: 'entries per page: a whole number from 1 to 500' })
      .int({ message: 'entries per page: a whole number from 1 to 500' })
      .min(1, { message: 'entries per page: at least 1' })
      .max(OUTBOX_PAGE_MAX, {
        message: `entries per page: at most ${OUTBOX_PAGE_MAX}; ask for the next page with after`,
      })
      // Optional rather than defaulted, so that callers of the core's invoke (parsed input) may still pass {}.
      .optional(),
  })
  .strict();

/**
 * One entry whole, as the outbox keeps it on disk (main/engine/outbox/outbox-entry.ts): the payload
 * sent on every replay, the last error with its kind. For a host that prints entries as they are
 * (the CLI's `outbox list --json`); a screen reads OutboxEntryView.
 */
export type OutboxRecord = {
  format: string;
  id: string;
  serviceUrl: string;
  orgId: string;
  serialNumber: string;
  createdAt: string;
  attempts: number;
  lastAttemptAt: string | null;
  lastError: {
    kind: string;
    message: string;
    httpStatus?: number;
    errors?: Array<{ code: string; message: string; field?: string | null }>;
    at: string;
  } | null;
  nextAttemptAt: string;
  state: 'pending' | 'rejected';
  rejectedAt: string | null;
} & (
  | { kind: 'firmware'; payload: FirmwareConfirmationInput }
  | { kind: 'configuration'; payload: ConfigurationConfirmationInput }
);

/** One page of whole entries, oldest first; `nextCursor` as OutboxView's. */
export interface OutboxRecordPage {
  entries: OutboxRecord[];
  nextCursor: string | null;
}

/** The outbox's counts after a pass. */
export interface OutboxPendingView {
  /** Entries still to be delivered. */
  count: number;
  /** createdAt of the oldest of them. */
  oldestCreatedAt: string | null;
  /** Entries the service refused for good. */
  rejected: number;
  /** Entry files left in place that this version cannot read. */
  unreadable: number;
  /** Entry files set aside as damaged. */
  quarantined: number;
}

/** What one pass that sent every entry now (whatever its backoff said) did, and what still waits and why. */
export interface OutboxSyncView {
  /** True when another process was sending (it holds the sender lock) and this pass sent nothing. */
  skippedLocked: boolean;
  /** Ids of the entries the service took, refused for good, and will be asked again. */
  delivered: string[];
  rejected: string[];
  retrying: string[];
  pending: OutboxPendingView;
  /** Pending entries for a service and organization no key is at hand for: they wait for a sign-in there. One per service and organization. */
  waitingForSignIn: Array<{ serviceUrl: string; orgId: string; count: number }>;
  /** Entries of this pass that a key was at hand for and that did not get through (refused, or to be retried). */
  notSent: OutboxEntryView[];
}

/** The confirmations waiting to reach the service. */
export const OUTBOX_CHANNELS = {
  'outbox.get': query(outboxPageInput).returns<OutboxView>(),
  'outbox.sendNow': command(noInput).returns<OutboxView>(),
  /** The entries whole, a page at a time (the same input as outbox.get). */
  'outbox.records': query(outboxPageInput).returns<OutboxRecordPage>(),
  /** Sends every entry now and says what the pass did (outbox.sendNow answers with the screen's view instead). */
  'outbox.sync': command(noInput).returns<OutboxSyncView>(),
  /** The counts of the whole outbox (what waits, since when, what was refused or set aside), sending nothing. */
  'outbox.pending': query(noInput).returns<OutboxPendingView>(),
} as const;
export type OutboxChannel = keyof typeof OUTBOX_CHANNELS;
