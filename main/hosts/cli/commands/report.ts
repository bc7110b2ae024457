import { extname, resolve } from 'node:path';
import { writeFileAtomic } from '../../../../platform/durable-file';
import { openWorkstationLedger } from '../../../engine/ledger';
import { workstationId } from '../../../engine/jobs/workstation';
import {
  makeCommissioningReport,
  renderReportPdf,
  ReportFontError,
  ReportRequestError,
  type CommissioningReport,
  type ReportContext,
  type ReportRequest,
} from '../../../features/report';
import { commissioningStatusText } from '../../../features/report/report-words';
import { cliLanguage, cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

export interface ReportOptions {
  configuration: string;
  device?: string;
  out?: string;
}

/** What a commissioning report is made from: the signed-in account's service and this workstation's ledger and cache. */
export async function reportContextOf(ctx: CliContext): Promise<ReportContext> {
  const account = await ctx.account();
  const provisioning = await ctx.provisioning();
  return {
    client: account.client,
    ledger: openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined),
    cache: provisioning.cache,
    workstation: await workstationId(ctx.dirs.data),
    service: account.label,
    orgId: account.orgId,
  };
}

/** The commissioning report of the signed-in account, from its service's records and this workstation's ledger. */
export async function commissioningReportOf(ctx: CliContext, request: ReportRequest): Promise<CommissioningReport> {
  return makeCommissioningReport(await reportContextOf(ctx), request);
}

/**
 * `report --configuration NAME [--device SERIAL] --out FILE.pdf|FILE.json`: the commissioning
 * report of a configuration (or one device of it) from the service's records and this
 * workstation's ledger. Without --out, --json prints the report. The PDF and the lines said here
 * are in the run's language (`--lang`, else LC_ALL / LC_MESSAGES / LANG); the JSON is the same in
 * every language.
 */
export async function report(ctx: CliContext, options: ReportOptions): Promise<number> {
  const kind = options.out === undefined ? undefined : extname(options.out).toLowerCase();
  if (options.out === undefined && !ctx.out.json) throw new CliError(t('cli:report.noOut'), EXIT.usage);
  if (kind !== undefined && kind !== '.pdf' && kind !== '.json')
    throw new CliError(t('cli:report.badExtension', { out: options.out ?? '' }), EXIT.usage);
  let made: CommissioningReport;
  try {
    made = await commissioningReportOf(ctx, {
      configurationName: options.configuration,
      ...(options.device ? { deviceSerial: options.device } : {}),
    });
  } catch (error) {
    if (error instanceof ReportRequestError) throw new CliError(error.message.replace(/\.$/, ''), EXIT.usage);
    throw error;
  }
  if (options.out === undefined) {
    ctx.out.line(JSON.stringify(made, null, 2));
    return EXIT.ok;
  }
  const path = resolve(ctx.io.cwd, options.out);
  let bytes: Uint8Array | string;
  try {
    bytes =
      kind === '.pdf' ? await renderReportPdf(made, { language: cliLanguage() }) : `${JSON.stringify(made, null, 2)}\n`;
  } catch (error) {
    if (error instanceof ReportFontError) throw new CliError(error.message.replace(/\.$/, ''), EXIT.failed);
    throw error;
  }
  // A report is for handing on: readable like any document the user saves.
  await writeFileAtomic(path, bytes, 0o644);
  if (ctx.out.json)
    ctx.out.jsonLine({
      event: 'written',
      path,
      format: kind === '.pdf' ? 'pdf' : 'json',
      devices: made.devices.length,
      ledgerIntact: made.ledger.intact,
    });
  else {
    const commissioned = made.devices.filter((d) => d.commissioning === 'commissioned').length;
    ctx.out.line(
      t('report:cli.written', { name: made.configuration.name, path, devices: made.devices.length, commissioned }),
    );
    for (const device of made.devices) {
      if (device.commissioning !== 'commissioned')
        ctx.out.note(
          t('report:cli.notCommissioned', {
            serial: device.serialNumber,
            status: commissioningStatusText(device.commissioning, device.missingSteps, cliTranslator()),
          }),
        );
    }
    if (!made.ledger.intact) ctx.out.error(t('report:cli.ledgerBroken', { where: made.ledger.broken ?? '' }));
  }
  return EXIT.ok;
}
