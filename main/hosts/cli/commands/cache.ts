import type { DeviceType } from '../../../../domain/device-types';
import { bytesText } from '../../../../domain/job-text';
import { cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { deviceTypeArgument } from './firmware';

/** A size in the run's language (English: the jobs core's own "12.3 kB"). */
const sizeText = (bytes: number): string => bytesText(bytes, cliTranslator());

/** `cache list`: firmware bundles and configuration files kept for offline use. */
export async function cacheList(ctx: CliContext): Promise<number> {
  // The kept configuration files are the account's: settled first (jobs()).
  const { firmware, patches, configurationFiles: configFiles } = await (await ctx.jobs()).invoke('cache.contents', {});
  if (ctx.out.json) {
    ctx.out.line(JSON.stringify({ firmware, patches, configurationFiles: configFiles }, null, 2));
    return EXIT.ok;
  }
  if (firmware.length === 0) ctx.out.line(t('cli:cache.noFirmware'));
  else
    ctx.out.table(
      [
        t('cli:cache.header.type'),
        t('cli:cache.header.version'),
        t('cli:cache.header.size'),
        t('cli:cache.header.fetched'),
        t('cli:cache.header.sha256'),
        t('cli:cache.header.source'),
      ],
      firmware.map((e) => [e.deviceType, e.version, sizeText(e.size), e.fetchedAt, e.sha256.slice(0, 12), e.source]),
    );
  if (patches.length > 0) {
    // A release the cache does not hold is named by its image's SHA-256.
    const release = (version: string | null, imageSha256: string) =>
      version ?? t('cli:cache.image', { sha: imageSha256.slice(0, 12) });
    ctx.out.line();
    ctx.out.table(
      [
        t('cli:cache.header.patchFor'),
        t('cli:cache.header.from'),
        t('cli:cache.header.to'),
        t('cli:cache.header.size'),
      ],
      patches.map((p) => [
        p.deviceType ?? '?',
        release(p.fromVersion, p.baseSha256),
        release(p.toVersion, p.targetSha256),
        sizeText(p.size),
      ]),
    );
  }
  if (configFiles.length > 0) {
    ctx.out.line();
    ctx.out.table(
      [
        t('cli:cache.header.device'),
        t('cli:cache.header.configurationSyncId'),
        t('cli:cache.header.size'),
        t('cli:cache.header.fetched'),
      ],
      configFiles.map((c) => [c.serialNumber, c.syncId, sizeText(c.size), c.fetchedAt]),
    );
  }
  return EXIT.ok;
}

/**
 * `cache prefetch`: before going where there is no network, take the latest firmware of every type
 * the organization uses (or those named), each configured device's configuration file, and the
 * service's signing key.
 */
export async function cachePrefetch(ctx: CliContext, options: { type?: string[] }): Promise<number> {
  await ctx.account();
  const core = await ctx.jobs();
  const types: DeviceType[] | undefined = options.type?.map(deviceTypeArgument);
  const report = await core.invoke('cache.prefetch', types ? { deviceTypes: types } : {});
  const failures: string[] = [
    ...report.failedFirmware.map((f) => t('cli:cache.failed.firmware', { type: f.deviceType, message: f.message })),
    ...report.failedConfigurationFiles.map((f) =>
      t('cli:cache.failed.configurationFile', { serial: f.serialNumber, message: f.message }),
    ),
  ];
  const configured = report.configurationFiles;
  if (ctx.out.json) {
    ctx.out.jsonLine({
      firmware: { fetched: report.fetched, upToDate: report.upToDate, patches: report.patches },
      configurationFiles: configured,
      failures,
    });
  } else {
    for (const entry of report.fetched)
      ctx.out.line(
        t('cli:cache.cached', { type: entry.deviceType, version: entry.version, size: sizeText(entry.size) }),
      );
    for (const entry of report.upToDate)
      ctx.out.line(t('cli:cache.upToDate', { type: entry.deviceType, version: entry.version }));
    for (const patch of report.patches) {
      ctx.out.line(
        t('cli:cache.patch', {
          type: patch.deviceType,
          from: patch.fromVersion,
          to: patch.toVersion,
          size: sizeText(patch.size),
        }),
      );
    }
    if (configured.length > 0) ctx.out.line(t('cli:cache.kept', { serials: configured.join(', ') }));
    if (!report.signingKey) ctx.out.note(t('cli:cache.noSigningKey'));
    for (const failure of failures) ctx.out.error(failure);
  }
  // Files of incomplete configurations are expected to be missing; only firmware failures fail the command.
  return report.failedFirmware.length === 0 ? EXIT.ok : EXIT.failed;
}

/** `cache prune --keep N`: the newest N versions of each type stay. */
export async function cachePrune(ctx: CliContext, options: { keep: number }): Promise<number> {
  const removed = await (await ctx.jobs()).invoke('cache.prune', { keepPerType: options.keep });
  if (ctx.out.json) ctx.out.jsonLine({ removed });
  else if (removed.length === 0) ctx.out.line(t('cli:cache.pruneNothing', { keep: options.keep }));
  else
    for (const entry of removed)
      ctx.out.line(
        t('cli:cache.removed', { type: entry.deviceType, version: entry.version, size: sizeText(entry.size) }),
      );
  return EXIT.ok;
}
