import { extname, resolve } from 'node:path';
import { writeFileAtomic } from '../../../../platform/durable-file';
import { CoreError, type CommissioningReportFileView } from '../../../../contract/index';
import { cliLanguage, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';

export interface ReportOptions {
  configuration: string;
  device?: string;
  out?: string;
}

/**
 * The commissioning report of the signed-in account, made by the core (`reports.commissioning`)
 * from its service's records and this workstation's ledger: the file, in the run's language.
 */
async function commissioningReportOf(
  ctx: CliContext,
  options: ReportOptions,
  format: 'pdf' | 'json',
): Promise<{ file: CommissioningReportFileView; bytes: Buffer }> {
  const core = await ctx.jobs();
  try {
    const file = await core.invoke('reports.commissioning', {
      configurationName: options.configuration,
      ...(options.device ? { serialNumber: options.device } : {}),
      format,
      language: cliLanguage(),
    });
    return { file, bytes: Buffer.from(file.contentBase64, 'base64') };
  } catch (error) {
    // A configuration or device the report cannot be about: the command line was wrong.
    if (error instanceof CoreError && error.code === 'VALIDATION')
      throw new CliError(error.message.replace(/\.$/, ''), EXIT.usage);
    // A machine without the fonts a report in this language needs: said with how to install them.
    if (error instanceof CoreError && error.code === 'INTERNAL')
      throw new CliError(error.message.replace(/\.$/, ''), EXIT.failed);
    throw error;
  }
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
  const { file, bytes } = await commissioningReportOf(ctx, options, kind === '.pdf' ? 'pdf' : 'json');
  if (options.out === undefined) {
    // The report itself, as the JSON file has it (without the file's last newline).
    ctx.out.line(bytes.toString('utf8').replace(/\n$/, ''));
    return EXIT.ok;
  }
  const path = resolve(ctx.io.cwd, options.out);
  // A report is for handing on: readable like any document the user saves.
  await writeFileAtomic(path, bytes, 0o644);
  if (ctx.out.json)
    ctx.out.jsonLine({
      event: 'written',
      path,
      format: kind === '.pdf' ? 'pdf' : 'json',
      devices: file.deviceCount,
      ledgerIntact: file.ledgerIntact,
    });
  else {
    ctx.out.line(
      t('report:cli.written', {
        name: file.configurationName,
        path,
        devices: file.deviceCount,
        commissioned: file.commissionedCount,
      }),
    );
    for (const device of file.notCommissioned ?? [])
      ctx.out.note(t('report:cli.notCommissioned', { serial: device.serialNumber, status: device.status }));
    if (!file.ledgerIntact) ctx.out.error(t('report:cli.ledgerBroken', { where: file.ledgerBroken ?? '' }));
  }
  return EXIT.ok;
}
