import { decodeConfigFile } from '../../../../domain/files/config-file';
import { checkRunningParameters, type VerifiedParameters } from '../../../engine/jobs/parameter-check';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { parameterTableJson, parameterTableLines } from '../parameter-table';
import { recordParameterVerifications } from '../parameter-record';
import type { Identified } from './device-list';

export type { VerifiedParameters } from '../../../engine/jobs/parameter-check';

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
  const results: (VerifiedParameters | { serialNumber: string; error: string })[] = [];
  for (const device of wanted) {
    const serialNumber = device.identity.serialNumber;
    try {
      results.push(await verifyOne(ctx, device));
    } catch (error) {
      results.push({ serialNumber, error: error instanceof Error ? error.message : String(error) });
    }
  }
  const verified = results.filter((r): r is VerifiedParameters => 'comparison' in r);
  await recordParameterVerifications(
    ctx,
    verified,
    options.technician ?? ctx.io.env.PROVISIONER_TECHNICIAN ?? null,
    null,
  );

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

async function verifyOne(ctx: CliContext, device: Identified): Promise<VerifiedParameters> {
  const serialNumber = device.identity.serialNumber;
  const { client } = await ctx.account();
  const resolved = await (await ctx.provisioning()).configFiles().resolve(client.devices, serialNumber);
  const decoded = decodeConfigFile(resolved.bytes);
  if (decoded.serialNumber !== serialNumber)
    throw new Error(`the service sent the file of ${decoded.serialNumber} for ${serialNumber}`);
  const connection = await ctx.connector().connect({ kind: 'link', spec: device.link, serialNumber });
  try {
    return {
      serialNumber,
      link: connection.link,
      syncId: decoded.syncId,
      comparison: await checkRunningParameters(connection, decoded),
    };
  } finally {
    await connection.close().catch(() => undefined);
  }
}
