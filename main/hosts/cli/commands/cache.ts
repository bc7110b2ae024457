import type { DeviceType } from '../../../../domain/device-types';
import { decodeConfigFile } from '../../../../domain/files/config-file';
import { cachedPatches } from '../../../app/cache/cached-patches';
import { bytesText } from '../../../app/jobs';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { deviceTypeArgument } from './firmware';

/** `cache list`: firmware bundles and configuration files kept for offline use. */
export async function cacheList(ctx: CliContext): Promise<number> {
  const service = await ctx.provisioning();
  const firmware = await service.cache.list();
  const patches = await cachedPatches(service.cache, firmware);
  const configFiles = await service.configFiles().list();
  if (ctx.out.json) {
    ctx.out.line(JSON.stringify({ firmware, patches, configurationFiles: configFiles }, null, 2));
    return EXIT.ok;
  }
  if (firmware.length === 0) ctx.out.line('No firmware cached. Fill the cache while the service is reachable: provisioner cache prefetch');
  else
    ctx.out.table(
      ['TYPE', 'VERSION', 'SIZE', 'FETCHED', 'SHA-256', 'SOURCE'],
      firmware.map((e) => [e.deviceType, e.version, bytesText(e.size), e.fetchedAt, e.sha256.slice(0, 12), e.source]),
    );
  if (patches.length > 0) {
    // A release the cache does not hold is named by its image's SHA-256.
    const release = (version: string | null, imageSha256: string) => version ?? `image ${imageSha256.slice(0, 12)}`;
    ctx.out.line();
    ctx.out.table(
      ['PATCH FOR', 'FROM', 'TO', 'SIZE'],
      patches.map((p) => [p.deviceType ?? '?', release(p.fromVersion, p.baseSha256), release(p.toVersion, p.targetSha256), bytesText(p.size)]),
    );
  }
  if (configFiles.length > 0) {
    ctx.out.line();
    ctx.out.table(['DEVICE', 'CONFIGURATION SYNC ID', 'SIZE', 'FETCHED'], configFiles.map((c) => [c.serialNumber, c.syncId, bytesText(c.size), c.fetchedAt]));
  }
  return EXIT.ok;
}

/**
 * `cache prefetch`: before going where there is no network, take the latest firmware of every type
 * the organization uses (or those named), each configured device's configuration file, and the
 * service's signing key.
 */
export async function cachePrefetch(ctx: CliContext, options: { type?: string[] }): Promise<number> {
  const account = await ctx.account();
  const service = await ctx.provisioning();
  const types: DeviceType[] | undefined = options.type?.map(deviceTypeArgument);
  const report = await service.cache.prefetch(account.client, types);
  const failures: string[] = report.failed.map((f) => `${f.deviceType} firmware: ${f.error instanceof Error ? f.error.message : String(f.error)}`);
  const store = service.configFiles();
  const configured: string[] = [];
  if (!types) {
    for await (const device of account.client.devices.listAll()) {
      if (device.configurationId === null) continue;
      try {
        const file = await account.client.devices.fetchConfigurationFile(device.serialNumber);
        await store.put(device.serialNumber, file.bytes, decodeConfigFile(file.bytes).syncId);
        configured.push(device.serialNumber);
      } catch (error) {
        // A configuration not complete yet has no file: say so, keep going.
        failures.push(`${device.serialNumber} configuration file: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  const key = await account.client.signingKey().catch(() => undefined);
  if (ctx.out.json) {
    ctx.out.jsonLine({ firmware: { fetched: report.fetched, upToDate: report.upToDate, patches: report.patches }, configurationFiles: configured, failures });
  } else {
    for (const entry of report.fetched) ctx.out.line(`Cached ${entry.deviceType} firmware ${entry.version} (${bytesText(entry.size)}).`);
    for (const entry of report.upToDate) ctx.out.line(`${entry.deviceType} firmware ${entry.version} already cached.`);
    for (const patch of report.patches) {
      ctx.out.line(`Cached the ${patch.deviceType} patch from ${patch.fromVersion} to ${patch.toVersion} (${bytesText(patch.size)}): a device on ${patch.fromVersion} gets it instead of the whole image.`);
    }
    if (configured.length > 0) ctx.out.line(`Kept the configuration files of ${configured.join(', ')}.`);
    if (!key) ctx.out.note('the service did not give its signing key; configuration files are then checked by the devices only');
    for (const failure of failures) ctx.out.error(failure);
  }
  // Files of incomplete configurations are expected to be missing; only firmware failures fail the command.
  return report.failed.length === 0 ? EXIT.ok : EXIT.failed;
}

/** `cache prune --keep N`: the newest N versions of each type stay. */
export async function cachePrune(ctx: CliContext, options: { keep: number }): Promise<number> {
  const service = await ctx.provisioning();
  const removed = await service.cache.prune({ keepPerType: options.keep });
  if (ctx.out.json) ctx.out.jsonLine({ removed });
  else if (removed.length === 0) ctx.out.line(`Nothing to prune: no type has more than ${options.keep} version${options.keep === 1 ? '' : 's'} cached.`);
  else for (const entry of removed) ctx.out.line(`Removed ${entry.deviceType} firmware ${entry.version} (${bytesText(entry.size)}).`);
  return EXIT.ok;
}
