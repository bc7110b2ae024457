import { randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DEVICE_TYPES, type DeviceType } from '../../../../domain/device-types';
import { readFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';
import { runJobs } from '../run-jobs';
import { resolveTargets } from '../targets';
import { moveTo, outputDir, readInputFile } from './files';
import type { UpdateOptions } from './configuration';

export function deviceTypeArgument(value: string): DeviceType {
  const upper = value.toUpperCase();
  if (!(DEVICE_TYPES as readonly string[]).includes(upper)) throw new CliError(`unknown device type "${value}"; use one of ${DEVICE_TYPES.join(', ')}`, EXIT.usage);
  return upper as DeviceType;
}

/** `device firmware download (-s SN | -t TYPE) -o DIR`: the latest bundle, checked, saved and cached. */
export async function firmwareDownload(ctx: CliContext, options: { serial?: string; type?: string; output: string }): Promise<number> {
  if ((options.serial === undefined) === (options.type === undefined)) throw new CliError('give either -s SERIAL_NUMBER or -t TYPE', EXIT.usage);
  const deviceType = options.type === undefined ? undefined : deviceTypeArgument(options.type);
  const account = await ctx.account();
  const dir = await outputDir(options.output);
  const temp = join(dir, `.download-${randomBytes(6).toString('hex')}`);
  const downloaded =
    options.serial !== undefined
      ? await account.client.devices.downloadFirmware(options.serial, { path: temp })
      : await account.client.devices.downloadFirmwareByType(deviceType!, { path: temp });
  const bytes = new Uint8Array(await readFile(temp));
  let bundle;
  try {
    bundle = readFirmwareBundle(bytes, deviceType ? { deviceType } : {});
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  const path = await moveTo(temp, dir, downloaded.fileName ?? `${bundle.deviceType}-${bundle.version}.zip`);
  const service = await ctx.provisioning();
  // Downloaded from this organization: it may stand in for the service's answer offline.
  const origin = { serviceUrl: account.client.baseUrl, orgId: account.client.orgId };
  await service.cache.put(bytes, { source: `file ${path}`, origin, expect: { deviceType: bundle.deviceType, version: bundle.version } });
  if (ctx.out.json) ctx.out.jsonLine({ path, deviceType: bundle.deviceType, version: bundle.version, size: downloaded.size, sha256: downloaded.sha256 });
  else ctx.out.line(`Saved ${path}: ${bundle.deviceType} firmware ${bundle.version} (${downloaded.size} bytes, image SHA-256 checked); also kept in the cache for offline installs.`);
  return EXIT.ok;
}

/** `device firmware apply SN -f FILE`: a bundle the technician has. */
export async function firmwareApply(ctx: CliContext, serialNumber: string | undefined, options: { file: string; link?: string[]; force?: boolean }, interrupt?: AbortSignal): Promise<number> {
  const file = await readInputFile(options.file);
  readFirmwareBundle(file.bytes); // a damaged bundle is reported before any device is looked for
  const { targets, missing } = await resolveTargets(ctx, { serialNumbers: serialNumber ? [serialNumber] : [], links: options.link ?? [] });
  return runJobs(
    ctx,
    targets.map((target) => ({ action: 'firmware', target, force: options.force, firmware: { kind: 'file', bytes: file.bytes, name: file.name } })),
    missing,
    interrupt,
  );
}

/** `device firmware update SN...`: the latest firmware for each device. */
export async function firmwareUpdate(ctx: CliContext, serialNumbers: string[], options: UpdateOptions & { force?: boolean }, interrupt?: AbortSignal): Promise<number> {
  const { targets, missing } = await resolveTargets(ctx, { serialNumbers, links: options.link ?? [], all: options.all });
  return runJobs(ctx, targets.map((target) => ({ action: 'firmware', target, force: options.force })), missing, interrupt);
}

/** `device update SN...`: latest firmware, then the configuration file. */
export async function deviceUpdate(ctx: CliContext, serialNumbers: string[], options: UpdateOptions & { force?: boolean }, interrupt?: AbortSignal): Promise<number> {
  const { targets, missing } = await resolveTargets(ctx, { serialNumbers, links: options.link ?? [], all: options.all });
  return runJobs(ctx, targets.map((target) => ({ action: 'both', target, force: options.force })), missing, interrupt);
}
