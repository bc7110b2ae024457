import type { ServiceClient } from '../../../cloud';
import { clientConfirmationSender, Outbox, provisioningPaths, type OutboxEntry } from '../../../app/jobs';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { LOCAL_WORKSPACE_SERVICE } from '../../../app/local-workspace';

function summary(entry: OutboxEntry): string {
  if (entry.kind === 'firmware') {
    const p = entry.payload;
    return p.firmwareFileSuccessfullyDeployed ? `firmware ${p.firmwareVersion ?? '?'} applied` : `firmware ${p.firmwareVersion ?? ''} failed: ${p.error ?? ''}`.replace('  ', ' ');
  }
  const p = entry.payload;
  return p.configurationFileSuccessfullyDeployed ? `configuration ${p.syncId} applied` : `configuration ${p.syncId} failed: ${p.error ?? ''}`;
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
  const peek = new Outbox({ dir, sender: { send: () => Promise.reject(new Error('not sending')) }, onEvent: (event) => ctx.noteOutboxEvent(event) });
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

/** `outbox list`: what waits, since when, why. */
export async function outboxList(ctx: CliContext): Promise<number> {
  const outbox = new Outbox({ dir: provisioningPaths(ctx.dirs.data).outbox, sender: { send: () => Promise.reject(new Error('not sending')) }, onEvent: (event) => ctx.noteOutboxEvent(event) });
  const entries = await outbox.list();
  if (ctx.out.json) {
    ctx.out.line(JSON.stringify(entries, null, 2));
    return EXIT.ok;
  }
  if (entries.length === 0) {
    ctx.out.line('The outbox is empty: the service has every confirmation.');
    return EXIT.ok;
  }
  ctx.out.table(
    ['ID', 'DEVICE', 'STATE', 'SINCE', 'TRIES', 'SERVICE', 'CONFIRMS', 'LAST ERROR'],
    entries.map((e) => [shortId(e.id), e.serialNumber, e.state, e.createdAt, String(e.attempts), `${e.orgId}@${e.serviceUrl}`, clip(summary(e)), clip(e.lastError?.message ?? '')]),
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
    ctx.out.line('Another provisioner process is sending the outbox right now; nothing sent by this one.');
    return EXIT.ok;
  }
  ctx.out.line(
    `Sent ${report.delivered.length} confirmation${report.delivered.length === 1 ? '' : 's'}` +
      (left.count > 0 ? `; ${left.count} still waiting (since ${left.oldestCreatedAt})` : '; the outbox is empty') +
      (report.rejected.length > 0 ? `; ${report.rejected.length} refused by the service` : '') +
      '.',
  );
  const remaining = await outbox.list();
  // Confirmations for a service we hold no key for wait for a login there: one note per service.
  const needLogin = new Map<string, number>();
  for (const entry of remaining.filter((e) => e.state === 'pending' && !hasClient(e))) {
    const where = entry.serviceUrl === LOCAL_WORKSPACE_SERVICE ? 'the local workspace' : `organization ${entry.orgId} at ${entry.serviceUrl}`;
    needLogin.set(where, (needLogin.get(where) ?? 0) + 1);
  }
  for (const [where, count] of needLogin) ctx.out.note(`${count} confirmation${count === 1 ? '' : 's'} for ${where} wait${count === 1 ? 's' : ''} for a login there`);
  for (const entry of remaining.filter((e) => hasClient(e) && (report.retrying.includes(e.id) || report.rejected.includes(e.id)))) {
    ctx.out.error(`${entry.serialNumber}: ${entry.state === 'rejected' ? 'refused' : 'not sent'} (${summary(entry)}): ${entry.lastError?.message ?? 'no answer'}`);
  }
  return left.count === 0 && report.rejected.length === 0 ? EXIT.ok : EXIT.failed;
}
