import type { ServiceClient } from '../../cloud';
import { clientConfirmationSender, Outbox, provisioningPaths, type OutboxEntry } from '../../provisioning';
import type { CliContext } from '../context';
import { EXIT } from '../errors';

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

/** An outbox whose sender has a client for every service the entries name that we hold a key for. */
async function openOutbox(ctx: CliContext): Promise<Outbox> {
  const dir = provisioningPaths(ctx.dirs.data).outbox;
  const peek = new Outbox({ dir, sender: { send: () => Promise.reject(new Error('not sending')) } });
  const clients = new Map<string, ServiceClient | undefined>();
  for (const entry of await peek.list()) {
    const key = `${entry.serviceUrl}\u0000${entry.orgId}`;
    if (!clients.has(key)) clients.set(key, await ctx.clientFor(entry.serviceUrl, entry.orgId));
  }
  return new Outbox({ dir, sender: clientConfirmationSender((serviceUrl, orgId) => clients.get(`${serviceUrl}\u0000${orgId}`)) });
}

/** `outbox list`: what waits, since when, why. */
export async function outboxList(ctx: CliContext): Promise<number> {
  const outbox = new Outbox({ dir: provisioningPaths(ctx.dirs.data).outbox, sender: { send: () => Promise.reject(new Error('not sending')) } });
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
    entries.map((e) => [shortId(e.id), e.serialNumber, e.state, e.createdAt, String(e.attempts), `${e.orgId}@${e.serviceUrl}`, summary(e), e.lastError?.message ?? '']),
  );
  return EXIT.ok;
}

/** `outbox sync`: send everything now, whatever its backoff says. */
export async function outboxSync(ctx: CliContext): Promise<number> {
  const outbox = await openOutbox(ctx);
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
  for (const entry of (await outbox.list()).filter((e) => report.retrying.includes(e.id) || report.rejected.includes(e.id))) {
    ctx.out.error(`${entry.serialNumber}: ${summary(entry)}: ${entry.lastError?.message ?? 'not sent'}`);
  }
  return left.count === 0 && report.rejected.length === 0 ? EXIT.ok : EXIT.failed;
}
