import {
  appendParameterVerifications,
  type ParameterConfirmation,
  type VerifiedParameters,
} from '../../engine/jobs/parameter-check';
import { workstationId } from '../../engine/jobs/workstation';
import { openWorkstationLedger, sendLedger } from '../../engine/ledger';
import type { CliContext } from './context';

/**
 * Each verification into this workstation's ledger (and to the organization's chain when the
 * service answers), with the person, the workstation and the tool. A ledger that cannot be written
 * is said; the verdict stands.
 */
export async function recordParameterVerifications(
  ctx: CliContext,
  verified: readonly VerifiedParameters[],
  person: string | null,
  confirmation: ParameterConfirmation | null,
): Promise<void> {
  if (verified.length === 0) return;
  const account = await ctx.account();
  const keyName = account.local ? null : ((await ctx.login())?.keyName ?? null);
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  try {
    await appendParameterVerifications(ledger, verified, {
      workstation: await workstationId(ctx.dirs.data),
      person,
      ...(keyName ? { actor: keyName } : {}),
      serviceUrl: account.serviceUrl,
      orgId: account.orgId,
      confirmation,
    });
  } catch (error) {
    ctx.out.note(
      `The parameter verification could not be written to this workstation's ledger: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  await sendLedger(ledger, account).catch(() => undefined);
}
