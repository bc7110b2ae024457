import type { BrokenLink } from '../../../../domain/ledger';
import type { LedgerEntryCheck } from '../../../../contract/ledger';
import { brokenLinkText, ledgerLinkFaultText } from '../../../../domain/ledger-link-fault';
import { ledgerProgressView } from '../ledger-progress';
import { cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

function entryCheckText(check: LedgerEntryCheck): string {
  if (!check.found) return t('cli:ledger.entryMissing', { hash: check.hash });
  return t('cli:ledger.entryFound', {
    seq: check.seq ?? '',
    action: check.action ?? '',
    serial: check.serialNumber ?? '',
    at: check.at ?? '',
    hash: check.hash,
    holds: check.holds ? 'yes' : 'no',
  });
}

/**
 * `ledger verify [--json] [--local] [--entry HASH…]`: checks the local ledger's chain, sends the service the entries
 * it lacks, checks the organization's chain there and that it holds this workstation's entries as
 * they are here. Names the first broken link of each; exits 1 when any does not hold.
 */
export async function ledgerVerify(ctx: CliContext, options: { local?: boolean; entry?: string[] }): Promise<number> {
  // The account is settled here too: its label is said beside the service's check.
  const account = options.local ? undefined : await ctx.account();
  const core = ctx.core();
  const progress = ledgerProgressView(ctx.out);
  const stopDrawing = core.subscribe('ledger.verifyProgress', (p) => progress.onProgress(p));
  const result = await core
    .invoke('ledger.verify', { local: options.local === true, entries: options.entry ?? [] })
    .finally(() => {
      stopDrawing();
      progress.close();
    });
  const { entries, ok: holds } = result;
  if (ctx.out.json) {
    ctx.out.jsonLine({ ...result, ...(account ? { serviceLabel: account.label } : {}) });
    return holds ? EXIT.ok : EXIT.failed;
  }
  const { local } = result;
  if (result.keys.from === 'none') ctx.out.line(t('cli:ledger.keysOwn', { why: result.keys.why }));
  else
    ctx.out.line(
      t('cli:ledger.keysOrg', { count: result.keys.count, from: result.keys.from, issuedAt: result.keys.issuedAt }),
    );
  if (local.ok)
    ctx.out.line(
      t('cli:ledger.localHolds', { path: local.path, entries: local.entries, head: local.head.slice(0, 16) }),
    );
  else ctx.out.line(t('cli:ledger.localBroken', { path: local.path, where: brokenLinkInRunLanguage(local.broken!) }));
  for (const entry of entries ?? []) ctx.out.line(entryCheckText(entry));
  const service = result.service;
  if (service && account) {
    if ('error' in service)
      ctx.out.line(t('cli:ledger.serviceError', { account: account.label, error: service.error }));
    else {
      ctx.out.line(
        t('cli:ledger.service', {
          account: account.label,
          sent: service.sent.received,
          chainOk: service.chain.ok ? 'yes' : 'no',
          entries: service.chain.entries,
          broken: brokenReasonInRunLanguage(service.chain.broken),
          withheld: service.sent.withheld,
        }),
      );
      if (service.mismatch)
        ctx.out.line(t('cli:ledger.disagree', { where: brokenLinkInRunLanguage(service.mismatch) }));
      else if (service.chain.ok) ctx.out.line(t('cli:ledger.match'));
    }
  }
  return holds ? EXIT.ok : EXIT.failed;
}

/** Where a link broke and why, in the run's language (the fault's English is the core's reason). */
function brokenLinkInRunLanguage(broken: BrokenLink): string {
  return brokenLinkText(broken, cliTranslator());
}

/** Why a link broke, without where, in the run's language; an older core's link without a fault keeps its English. */
function brokenReasonInRunLanguage(broken: BrokenLink | undefined): string {
  if (!broken) return '';
  return broken.why ? ledgerLinkFaultText(broken.why, cliTranslator()) : broken.reason;
}

/**
 * `ledger enrol [--rotate]`: enrols this workstation's ledger key with the logged-in service, which
 * records who did and when (sending entries does it too). `--rotate` replaces the key enrolled for
 * this workstation by the one it has now: an Admin's, and the old key's later entries fail verify.
 */
export async function ledgerEnrol(ctx: CliContext, options: { rotate?: boolean }): Promise<number> {
  const account = await ctx.account();
  if (account.local) throw new CliError(t('cli:ledger.enrolLocal'));
  const { workstation, enrolment: result } = await ctx
    .core()
    .invoke('ledger.enrol', { rotate: options.rotate === true });
  if (ctx.out.json) ctx.out.jsonLine(result);
  else if (!result.enrolled)
    ctx.out.line(
      t('cli:ledger.alreadyEnrolled', {
        key: result.key.publicKey.slice(-12),
        account: account.label,
        by: result.key.enrolledBy,
        at: result.key.enrolledAt,
      }),
    );
  else
    ctx.out.line(
      t('cli:ledger.enrolled', {
        key: result.key.publicKey.slice(-12),
        workstation,
        account: account.label,
        rotated: options.rotate ? 'yes' : 'no',
      }),
    );
  return EXIT.ok;
}

/** `ledger revoke WORKSTATION --reason TEXT` (Admin): that workstation's key signs nothing more; its later entries fail verify, with the reason. */
export async function ledgerRevoke(ctx: CliContext, workstation: string, options: { reason: string }): Promise<number> {
  const account = await ctx.account();
  if (account.local) throw new CliError(t('cli:ledger.revokeLocal'));
  const key = await ctx.core().invoke('ledger.revoke', { workstation, reason: options.reason });
  if (ctx.out.json) ctx.out.jsonLine(key);
  else
    ctx.out.line(
      t('cli:ledger.revoked', {
        key: key.publicKey.slice(-12),
        workstation,
        seq: key.validThroughSeq ?? 0,
        reason: options.reason,
      }),
    );
  return EXIT.ok;
}
