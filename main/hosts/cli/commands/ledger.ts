import { type BrokenLink, type ChainCheck, type LedgerLine } from '../../../../domain/ledger';
import { brokenLinkText, ledgerLinkFaultText } from '../../../../domain/ledger-link-fault';
import {
  openWorkstationLedger,
  refreshWorkstationKeys,
  sendLedger,
  verifyLedgers,
  WorkstationKeyCache,
  type KeyListSource,
  type LedgerVerification,
} from '../../../engine/ledger';
import { SigningKeyStore } from '../../../engine/jobs/signing-key-store';
import { provisioningPaths } from '../../../engine/paths';
import { ledgerProgressView } from '../ledger-progress';
import { workstationId } from '../../../engine/jobs/workstation';
import { cliTranslator, t } from '../cli-language';
import type { CliAccount, CliContext } from '../context';
import { CliError, EXIT } from '../errors';

/** Whether every check that ran holds. */
export function verificationHolds(result: LedgerVerification): boolean {
  if (!result.local.ok) return false;
  if (!result.service) return true;
  if ('error' in result.service) return false;
  return result.service.chain.ok && result.service.mismatch === undefined;
}

/** What `--entry HASH` found: the entry of that hash in the local ledger, and whether the chain holds up to it. */
export interface EntryCheck {
  hash: string;
  found: boolean;
  /** In the ledger and every link up to it holds: it is the entry that was written, unchanged. */
  holds: boolean;
  seq?: number;
  action?: string;
  serialNumber?: string;
  at?: string;
}

export function checkEntries(lines: readonly LedgerLine[], chain: ChainCheck, hashes: readonly string[]): EntryCheck[] {
  return hashes.map((hash) => {
    const line = lines.find((l): l is Extract<LedgerLine, { entry: unknown }> => 'entry' in l && l.entry.hash === hash);
    if (!line) return { hash, found: false, holds: false };
    // A link broken before it leaves it unproven; one broken after it does not touch it.
    const holds = chain.ok || (chain.broken !== undefined && line.line < chain.broken.line);
    const { seq, action, serialNumber, at } = line.entry;
    return { hash, found: true, holds, seq, action, serialNumber, at };
  });
}

function entryCheckText(check: EntryCheck): string {
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
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  const workstation = await workstationId(ctx.dirs.data);
  const account = options.local ? undefined : await ctx.account();
  const progress = ledgerProgressView(ctx.out);
  const result = await verifyLedgers(ledger, {
    workstation,
    keyList: await keyListSource(ctx, account),
    ...(account ? { account } : {}),
    onProgress: (p) => progress.onProgress(p),
  }).finally(() => progress.close());
  const entries =
    options.entry && options.entry.length > 0
      ? checkEntries(await ledger.readAll(), result.local, options.entry)
      : undefined;
  const holds = verificationHolds(result) && (entries ?? []).every((entry) => entry.holds);
  if (ctx.out.json) {
    ctx.out.jsonLine({
      ok: holds,
      workstation,
      ...result,
      ...(entries ? { entries } : {}),
      ...(account ? { serviceLabel: account.label } : {}),
    });
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
 * The organization's enrolled keys: fresh from the service (then kept) when there is an account,
 * else the list kept for the login, checked against the root key kept for it. Offline (--local)
 * nothing is asked of the service.
 */
async function keyListSource(ctx: CliContext, account: CliAccount | undefined): Promise<KeyListSource> {
  const login = account ?? (await ctx.login());
  if (!login) return {};
  const dir = provisioningPaths(ctx.dirs.data).account(login.serviceUrl, login.orgId).keys;
  const rootKeys = new SigningKeyStore({ dir });
  const cache = new WorkstationKeyCache({ dir });
  const orgId = login.orgId;
  const kept = async () => {
    const root = await rootKeys.stored();
    return root ? cache.read({ rootKeyPem: root.publicKeyPem, orgId }) : undefined;
  };
  if (!account) return { kept };
  return {
    kept,
    fetch: async () => {
      const root = (await rootKeys.get(account.client)).key;
      if (!root) throw new Error("the service's root key is not known, so its list of keys cannot be checked");
      return refreshWorkstationKeys(account.client, cache, { rootKeyPem: root.publicKeyPem, orgId });
    },
  };
}

/**
 * `ledger enrol [--rotate]`: enrols this workstation's ledger key with the logged-in service, which
 * records who did and when (sending entries does it too). `--rotate` replaces the key enrolled for
 * this workstation by the one it has now: an Admin's, and the old key's later entries fail verify.
 */
export async function ledgerEnrol(ctx: CliContext, options: { rotate?: boolean }): Promise<number> {
  const account = await ctx.account();
  if (account.local) throw new CliError(t('cli:ledger.enrolLocal'));
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  const workstation = await workstationId(ctx.dirs.data);
  const result = await account.client.workstations.enrol(
    await ledger.enrolment(account.orgId, workstation, { rotate: options.rotate === true }),
  );
  if (options.rotate && result.enrolled) {
    // The rotation in the chain: the new key's first entry says which key it replaced and who rotated it, and goes to the organization's chain now.
    const login = await ctx.login();
    const previous = (await ledger.entries()).findLast(
      (entry) => entry.workstation === workstation && entry.signerKey !== result.key.publicKey,
    )?.signerKey;
    await ledger.append({
      at: new Date().toISOString(),
      action: 'key-rotation',
      outcome: 'success',
      serialNumber: `workstation:${workstation}`,
      workstation,
      ...(login?.keyName ? { actor: login.keyName } : {}),
      serviceUrl: account.serviceUrl,
      orgId: account.orgId,
      facts: {
        publicKey: result.key.publicKey,
        previousKey: previous ?? null,
        enrolledBy: result.key.enrolledBy,
        enrolledAt: result.key.enrolledAt,
      },
    });
    await sendLedger(ledger, account);
  }
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
  const key = await account.client.workstations.revoke(workstation, options.reason);
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
