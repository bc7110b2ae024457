import { shortChecksum, type ParameterComparison } from '../../../domain/running-parameters';
import type { CliContext } from './context';

/** A parameter table a job of this run read back, as the CLI printed it. */
export interface ReadParameters {
  serialNumber: string;
  link: string;
  syncId: string;
  comparison: ParameterComparison;
}

/** The API key's name the ledger names as the actor: the login's; none for the local workspace. */
export async function keyNameOf(ctx: CliContext): Promise<string | null> {
  const account = await ctx.account();
  return account.local ? null : ((await ctx.login())?.keyName ?? null);
}

/**
 * Each verification into this workstation's ledger (and to the organization's chain when the
 * service answers), with the person, the workstation and the tool: the core's
 * `readback.recordParameters`, which records the table its own job read back. A confirmation
 * carries the checksum the person confirmed, the one the printed table showed; the core records it
 * only when it is the device's and the table matches. A ledger that cannot be written is said; the
 * verdict stands. The core stamps the confirmation's time as it records it.
 */
export async function recordParameterVerifications(
  ctx: CliContext,
  verified: readonly ReadParameters[],
  person: string | null,
  confirmation: { person: string; at: Date } | null,
): Promise<void> {
  if (verified.length === 0) return;
  const actor = await keyNameOf(ctx);
  for (const { serialNumber, syncId, comparison } of verified) {
    const { ledgerError } = await ctx.core().invoke('readback.recordParameters', {
      serialNumber,
      syncId,
      tableDigest: comparison.tableDigest,
      person,
      actor,
      confirmation: confirmation
        ? { person: confirmation.person, checksum: shortChecksum(comparison.runningChecksum) }
        : null,
    });
    if (ledgerError !== null)
      ctx.out.note(`The parameter verification could not be written to this workstation's ledger: ${ledgerError}`);
  }
}
