import { OUTBOX_PAGE_MAX } from '../../../../contract/outbox';
import type { ServiceClient } from '../../../cloud';
import { clientConfirmationSender, Outbox, provisioningPaths, type OutboxEntry } from '../../../engine/jobs';
import type { CliContext } from '../context';
import { cliTranslator, t } from '../cli-language';
import { confirmationSummaryOf, confirmationSummaryText } from '../../../../domain/confirmation-summary';
import { EXIT } from '../errors';
import { LOCAL_WORKSPACE_SERVICE } from '../../../core/local-workspace';

/** What the entry confirms, in the run's language. */
function summary(entry: OutboxEntry): string {
  return confirmationSummaryText(confirmationSummaryOf(entry), cliTranslator());
}

function shortId(id: string): string {
  return id.slice(-8);
}

function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An outbox whose sender has a client for every service the entries name that we hold a key for. */
async function openOutbox(ctx: CliContext): Promise<{ outbox: Outbox; hasClient: (entry: OutboxEntry) => boolean }> {
  const dir = provisioningPaths(ctx.dirs.data).outbox;
  // Only the peek reads first: it alone says what it set aside or could not read.
  const peek = new Outbox({
    dir,
    sender: { send: () => Promise.reject(new Error('not sending')) },
    onEvent: (event) => ctx.noteOutboxEvent(event),
  });
  const clients = new Map<string, ServiceClient | undefined>();
  for (const entry of await peek.list()) {
    const key = `${entry.serviceUrl}\u0000${entry.orgId}`;
    if (!clients.has(key)) clients.set(key, await ctx.clientFor(entry.serviceUrl, entry.orgId));
  }
  const clientFor = (serviceUrl: string, orgId: string) => clients.get(`${serviceUrl}\u0000${orgId}`);
  return {
    outbox: new Outbox({ dir, sender: clientConfirmationSender(clientFor) }),
    hasClient: (entry) => clientFor(entry.serviceUrl, entry.orgId) !== undefined,
  };
}

/** Every entry, oldest first, read a page at a time as the Outbox screen reads them. */
async function everyEntry(outbox: Outbox): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  let after: string | null = null;
  // Each cursor sorts after the one before, so the pages come to an end.
  do {
    const page = await outbox.page({ after, limit: OUTBOX_PAGE_MAX });
    entries.push(...page.entries);
    after = page.nextCursor;
  } while (after !== null);
  return entries;
}

/** `outbox list`: what waits, since when, why. */
export async function outboxList(ctx: CliContext): Promise<number> {
  const outbox = new Outbox({
    dir: provisioningPaths(ctx.dirs.data).outbox,
    sender: { send: () => Promise.reject(new Error('not sending')) },
    onEvent: (event) => ctx.noteOutboxEvent(event),
  });
  const entries = await everyEntry(outbox);
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
      clip(summary(e)),
      clip(e.lastError?.message ?? ''),
    ]),
  );
  return EXIT.ok;
}

/** `outbox sync`: send everything now, whatever its backoff says. */
export async function outboxSync(ctx: CliContext): Promise<number> {
  const { outbox, hasClient } = await openOutbox(ctx);
  const report = await outbox.syncNow({ force: true });
  const left = await outbox.pending();
  if (ctx.out.json) {
    ctx.out.jsonLine({ ...report, pending: left });
    return left.count === 0 && report.rejected.length === 0 ? EXIT.ok : EXIT.failed;
  }
  if (report.skippedLocked) {
    ctx.out.line(t('cli:outbox.locked'));
    return EXIT.ok;
  }
  ctx.out.line(
    t('cli:outbox.synced', {
      sent: report.delivered.length,
      waiting: left.count,
      since: left.oldestCreatedAt ?? '',
      refused: report.rejected.length,
    }),
  );
  const remaining = await outbox.list();
  // Confirmations for a service we hold no key for wait for a login there: one note per service.
  const needLogin = new Map<string, { orgId: string; serviceUrl: string; count: number }>();
  for (const entry of remaining.filter((e) => e.state === 'pending' && !hasClient(e))) {
    const where = `${entry.orgId}@${entry.serviceUrl}`;
    const known = needLogin.get(where) ?? { orgId: entry.orgId, serviceUrl: entry.serviceUrl, count: 0 };
    needLogin.set(where, { ...known, count: known.count + 1 });
  }
  for (const { orgId, serviceUrl, count } of needLogin.values()) {
    ctx.out.note(
      serviceUrl === LOCAL_WORKSPACE_SERVICE
        ? t('cli:outbox.waitLoginLocal', { count })
        : t('cli:outbox.waitLogin', { count, org: orgId, url: serviceUrl }),
    );
  }
  for (const entry of remaining.filter(
    (e) => hasClient(e) && (report.retrying.includes(e.id) || report.rejected.includes(e.id)),
  )) {
    ctx.out.error(
      t('cli:outbox.notSent', {
        serial: entry.serialNumber,
        state: entry.state,
        what: summary(entry),
        reason: entry.lastError?.message ?? t('cli:targets.noAnswer'),
      }),
    );
  }
  return left.count === 0 && report.rejected.length === 0 ? EXIT.ok : EXIT.failed;
}
