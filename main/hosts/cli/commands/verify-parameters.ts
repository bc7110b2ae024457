import type { ParameterReadBackView } from '../../../../contract/index';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { parameterTableJson, parameterTableLines } from '../parameter-table';
import { keyNameOf } from '../parameter-record';
import type { Identified } from './device-list';

/**
 * `device verify SN --parameters`: reads back the parameters each device runs and compares them
 * with those of the configuration file the service makes for it now, computed by this tool
 * (docs/device-protocol.md 3.11). Prints the table and both checksums; records each verification in
 * the ledger, unconfirmed (a confirmation is typed after an apply); exits non-zero on any mismatch.
 */
export async function deviceVerifyParameters(
  ctx: CliContext,
  wanted: readonly Identified[],
  missing: readonly string[],
  options: { technician?: string },
): Promise<number> {
  const results = await readBack(ctx, wanted, options.technician ?? ctx.io.env.PROVISIONER_TECHNICIAN ?? null);
  if (ctx.out.json) {
    ctx.out.line(
      JSON.stringify(
        [
          ...results.map((r) =>
            'comparison' in r
              ? { ...parameterTableJson(r.serialNumber, r.comparison), syncId: r.syncId, connection: r.link }
              : { serialNumber: r.serialNumber, match: false, error: r.error },
          ),
          ...missing.map((serialNumber) => ({ serialNumber, match: false, error: 'not attached' })),
        ],
        null,
        2,
      ),
    );
  } else {
    for (const r of results) {
      if ('comparison' in r) for (const line of parameterTableLines(r.serialNumber, r.comparison)) ctx.out.line(line);
      else ctx.out.error(`${r.serialNumber}: parameters not verified: ${r.error}`);
    }
    for (const serialNumber of missing)
      ctx.out.error(`${serialNumber}: not attached; check the cable, or name it with --link`);
  }
  return missing.length === 0 && results.every((r) => 'comparison' in r && r.comparison.match) ? EXIT.ok : EXIT.failed;
}

/**
 * The core reads each device's parameters back and records each verification, unconfirmed. The
 * run's account is settled first, as for a job; when it cannot be, no device is read and each says why.
 */
async function readBack(
  ctx: CliContext,
  wanted: readonly Identified[],
  person: string | null,
): Promise<ParameterReadBackView[]> {
  if (wanted.length === 0) return [];
  let core;
  try {
    core = await ctx.jobs();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return wanted.map((d) => ({ serialNumber: d.identity.serialNumber, error: reason }));
  }
  const { results, ledgerError } = await core.invoke('readback.parameters', {
    links: wanted.map((d) => d.link),
    person,
    actor: await keyNameOf(ctx),
  });
  if (ledgerError !== null)
    ctx.out.note(`The parameter verification could not be written to this workstation's ledger: ${ledgerError}`);
  return results;
}
