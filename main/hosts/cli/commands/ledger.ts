import { describeBrokenLink } from '../../../../domain/ledger';
import { openWorkstationLedger, verifyLedgers, type LedgerVerification } from '../../../app/ledger';
import { workstationId } from '../../../app/jobs/workstation';
import type { CliContext } from '../context';
import { EXIT } from '../errors';

/** Whether every check that ran holds. */
export function verificationHolds(result: LedgerVerification): boolean {
  if (!result.local.ok) return false;
  if (!result.service) return true;
  if ('error' in result.service) return false;
  return result.service.chain.ok && result.service.mismatch === undefined;
}

/**
 * `ledger verify [--json] [--local]`: checks the local ledger's chain, sends the service the entries
 * it lacks, checks the organization's chain there and that it holds this workstation's entries as
 * they are here. Names the first broken link of each; exits 1 when any does not hold.
 */
export async function ledgerVerify(ctx: CliContext, options: { local?: boolean }): Promise<number> {
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  const workstation = await workstationId(ctx.dirs.data);
  const account = options.local ? undefined : await ctx.account();
  const result = await verifyLedgers(ledger, { workstation, ...(account ? { account } : {}) });
  const holds = verificationHolds(result);
  if (ctx.out.json) {
    ctx.out.jsonLine({ ok: holds, workstation, ...result, ...(account ? { serviceLabel: account.label } : {}) });
    return holds ? EXIT.ok : EXIT.failed;
  }
  const { local } = result;
  if (local.ok) ctx.out.line(`Local ledger ${local.path}: ${local.entries} entr${local.entries === 1 ? 'y' : 'ies'}, every link holds${local.entries > 0 ? ` (last hash ${local.head.slice(0, 16)}…)` : ''}.`);
  else ctx.out.line(`Local ledger ${local.path}: BROKEN at ${describeBrokenLink(local.broken!)}. Entries from there on are not proven.`);
  const service = result.service;
  if (service && account) {
    if ('error' in service) ctx.out.line(`Service (${account.label}): could not be checked: ${service.error}`);
    else {
      const sent = service.sent.received > 0 ? `sent ${service.sent.received} new entr${service.sent.received === 1 ? 'y' : 'ies'}; ` : '';
      const withheld = service.sent.withheld > 0 ? `; ${service.sent.withheld} changed entr${service.sent.withheld === 1 ? 'y was' : 'ies were'} not sent` : '';
      const chain = service.chain.ok ? `${service.chain.entries} entr${service.chain.entries === 1 ? 'y' : 'ies'} in the organization's chain, every link holds` : `the organization's chain is BROKEN at ${service.chain.broken!.reason}`;
      ctx.out.line(`Service (${account.label}): ${sent}${chain}${withheld}.`);
      if (service.mismatch) ctx.out.line(`Service and local ledger disagree at ${describeBrokenLink(service.mismatch)}.`);
      else if (service.chain.ok) ctx.out.line("This workstation's entries on the service match the local ledger.");
    }
  }
  return holds ? EXIT.ok : EXIT.failed;
}
