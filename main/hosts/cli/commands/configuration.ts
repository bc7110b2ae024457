import { decodeConfigFile } from '../../../../domain/files/config-file';
import type { CliContext } from '../context';
import { cliTranslator, t } from '../cli-language';
import { changeBasisText, changeText } from '../../../../domain/configuration-diff';
import { CliError, EXIT } from '../errors';
import { runJobs } from '../run-jobs';
import { resolveTargets } from '../targets';
import { outputDir, readInputFile, refusal, saveDownload } from './files';
import { offerFunctionTests } from './function-test';
import { confirmAppliedParameters, type ParameterConfirmationOptions } from '../parameter-table';

/**
 * `device configuration download SN -o DIR [--force]`: the device's configuration file and its
 * syncId. Checked by the core before anything is written as a configuration job checks it before
 * sending (the root key's certificate for the organization key, the signature, for this device, of
 * the organization signed in to) and kept for offline use ("configuration update" works from it
 * when the service is unreachable; `downloads.configurationFile`), then saved as `SN.cbor`
 * (`SN-blank.cbor`), named here, never from the service's Content-Disposition. An existing file is
 * kept unless --force.
 */
export async function configurationDownload(
  ctx: CliContext,
  serialNumber: string,
  options: { output: string; force?: boolean },
): Promise<number> {
  await ctx.account();
  const dir = await outputDir(options.output);
  const download = await ctx.core().invoke('downloads.configurationFile', { serialNumber });
  if (download.outcome === 'rootKeyUnknown') throw new CliError(t('cli:configuration.noRootKey'), EXIT.failed);
  if (download.outcome === 'refused') throw refusal('configuration file', download.message);
  const { bytes, syncId, blank, sha256 } = download;
  const path = await saveDownload(dir, `${download.serialNumber}${blank ? '-blank' : ''}.cbor`, bytes, {
    force: options.force,
  });
  if (ctx.out.json) ctx.out.jsonLine({ serialNumber, path, syncId, size: bytes.length, sha256 });
  else
    ctx.out.line(
      t('cli:configuration.saved', {
        serial: serialNumber,
        path,
        size: bytes.length,
        syncId,
        blank: blank ? 'yes' : 'no',
      }),
    );
  return EXIT.ok;
}

export interface ApplyOptions {
  file: string;
  link?: string[];
}

/** `device configuration apply SN -f FILE`: a file the technician has, checked against the device before it is sent. */
export async function configurationApply(
  ctx: CliContext,
  serialNumber: string | undefined,
  options: ApplyOptions,
  interrupt?: AbortSignal,
): Promise<number> {
  const file = await readInputFile(options.file);
  decodeConfigFile(file.bytes); // a damaged file is reported before any device is looked for
  const { targets, missing } = await resolveTargets(ctx, {
    serialNumbers: serialNumber ? [serialNumber] : [],
    links: options.link ?? [],
  });
  return runJobs(
    ctx,
    targets.map((target) => ({
      action: 'configuration',
      target,
      configuration: { kind: 'file', bytes: file.bytes, name: file.name },
    })),
    missing,
    interrupt,
  );
}

export interface UpdateOptions extends ParameterConfirmationOptions {
  link?: string[];
  all?: boolean;
  /** Say what would change on each device, and change nothing. */
  dryRun?: boolean;
}

/** `device configuration update SN...`: each device's own file from the service. */
export async function configurationUpdate(
  ctx: CliContext,
  serialNumbers: string[],
  options: UpdateOptions,
  interrupt?: AbortSignal,
): Promise<number> {
  if (options.dryRun) return configurationUpdateDryRun(ctx, serialNumbers);
  const { targets, missing } = await resolveTargets(ctx, {
    serialNumbers,
    links: options.link ?? [],
    all: options.all,
  });
  const code = await runJobs(
    ctx,
    targets.map((target) => ({ action: 'configuration', target })),
    missing,
    interrupt,
    (finals) => confirmAppliedParameters(ctx, finals, options),
  );
  // At a terminal, the safety function is tested now, while the technician is at the machine.
  return offerFunctionTests(
    ctx,
    targets.flatMap((target) => (target.serialNumber ? [target.serialNumber] : [])),
    code,
  );
}

/**
 * `device configuration update SN... --dry-run`: what applying each device's file would change, in
 * words, from the channel the Workbench's change view asks (`workbench.configurationChanges`). Nothing
 * is applied and nothing kept.
 */
async function configurationUpdateDryRun(ctx: CliContext, serialNumbers: string[]): Promise<number> {
  for (const serialNumber of serialNumbers) {
    const plan = await ctx.core().invoke('workbench.configurationChanges', { serialNumber });
    if (ctx.out.json) {
      const { appliedFrom, ...rest } = plan;
      ctx.out.jsonLine({ ...rest, dryRun: true, appliedFrom, appliedContentKnown: appliedFrom !== null });
      continue;
    }
    const words = cliTranslator();
    ctx.out.line(`${serialNumber}: ${changeBasisText(plan, words)} → ${plan.syncId}`);
    if (plan.inSync) ctx.out.line(`  ${t('cli:dryRun.inSync')}`);
    else if (plan.changes.length === 0) ctx.out.line(`  ${t('cli:dryRun.sameSettings')}`);
    // The core names each change's subject; a view without one keeps the core's English line.
    for (const change of plan.changes)
      ctx.out.line(`  ${change.subject ? changeText({ ...change, subject: change.subject }, words) : change.text}`);
  }
  if (!ctx.out.json) ctx.out.line(t('cli:dryRun.done'));
  return EXIT.ok;
}
