import { OUTBOX_PAGE_MAX, type OutboxRecord, type OutboxRecordPage } from '../../../../contract/outbox';
import type { CliContext } from '../context';
import { cliTranslator, t } from '../cli-language';
import {
  confirmationSummaryOf,
  confirmationSummaryText,
  type ConfirmationSummary,
} from '../../../../domain/confirmation-summary';
import { EXIT } from '../errors';
import { LOCAL_WORKSPACE_SERVICE } from '../../../core/index';

/** What an entry confirms, in the run's language. */
function summaryText(confirms: ConfirmationSummary): string {
  return confirmationSummaryText(confirms, cliTranslator());
}

function shortId(id: string): string {
  return id.slice(-8);
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Every entry whole, oldest first, read a page at a time as the Outbox screen reads them. */
export async function everyEntry(ctx: CliContext): Promise<OutboxRecord[]> {
  const entries: OutboxRecord[] = [];
  let after: string | null = null;
  // Each cursor sorts after the one before, so the pages come to an end.
  do {
    const page: OutboxRecordPage = await ctx.core().invoke('outbox.records', { after, limit: OUTBOX_PAGE_MAX });
    entries.push(...page.entries);
    after = page.nextCursor;
  } while (after !== null);
  return entries;
}

/** `outbox list`: what waits, since when, why. */
export async function outboxList(ctx: CliContext): Promise<number> {
  const entries = await everyEntry(ctx);
  if (ctx.out.json) {
    ctx.out.line(JSON.stringify(entries, null, 2));
    return EXIT.ok;
  }
  if (entries.length === 0) {
    ctx.out.line(t('cli:outbox.empty'));
    return EXIT.ok;
  }
  ctx.out.table(
    [
      t('cli:outbox.header.id'),
      t('cli:outbox.header.device'),
      t('cli:outbox.header.state'),
      t('cli:outbox.header.since'),
      t('cli:outbox.header.tries'),
      t('cli:outbox.header.service'),
      t('cli:outbox.header.confirms'),
      t('cli:outbox.header.lastError'),
    ],
    entries.map((e) => [
      shortId(e.id),
      e.serialNumber,
      t('cli:outbox.state', { state: e.state }),
      e.createdAt,
      String(e.attempts),
      `${e.orgId}@${e.serviceUrl}`,
      clip(summaryText(confirmationSummaryOf(e))),
      clip(e.lastError?.message ?? ''),
    ]),
  );
  return EXIT.ok;
}

/** `outbox sync`: send everything now, whatever its backoff says. */
export async function outboxSync(ctx: CliContext): Promise<number> {
  const sync = await ctx.core().invoke('outbox.sync', {});
  const { skippedLocked, delivered, rejected, retrying, pending: left } = sync;
  const done = left.count === 0 && rejected.length === 0 ? EXIT.ok : EXIT.failed;
  if (ctx.out.json) {
    ctx.out.jsonLine({ skippedLocked, delivered, rejected, retrying, pending: left });
    return done;
  }
  if (skippedLocked) {
    ctx.out.line(t('cli:outbox.locked'));
    return EXIT.ok;
  }
  ctx.out.line(
    t('cli:outbox.synced', {
      sent: delivered.length,
      waiting: left.count,
      since: left.oldestCreatedAt ?? '',
      refused: rejected.length,
    }),
  );
  // Confirmations for a service we hold no key for wait for a login there: one note per service.
  for (const { orgId, serviceUrl, count } of sync.waitingForSignIn) {
    ctx.out.note(
      serviceUrl === LOCAL_WORKSPACE_SERVICE
        ? t('cli:outbox.waitLoginLocal', { count })
        : t('cli:outbox.waitLogin', { count, org: orgId, url: serviceUrl }),
    );
  }
  for (const entry of sync.notSent) {
    ctx.out.error(
      t('cli:outbox.notSent', {
        serial: entry.serialNumber,
        state: entry.state,
        what: entry.confirms ? summaryText(entry.confirms) : entry.summary,
        reason: entry.lastError ?? t('cli:targets.noAnswer'),
      }),
    );
  }
  return done;
}
