import { DEVICE_TYPES, type DeviceType } from '../../../../domain/device-types';
import { readFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';
import { runJobs } from '../run-jobs';
import { resolveTargets } from '../targets';
import { outputDir, readInputFile, refusal, saveDownload } from './files';
import type { UpdateOptions } from './configuration';
import { confirmAppliedParameters } from '../parameter-table';
import { t } from '../cli-language';

export function deviceTypeArgument(value: string): DeviceType {
  const upper = value.toUpperCase();
  if (!(DEVICE_TYPES as readonly string[]).includes(upper))
    throw new CliError(t('cli:firmware.unknownType', { value, choices: DEVICE_TYPES.join(', ') }), EXIT.usage);
  return upper as DeviceType;
}

/**
 * `device firmware download (-s SN | -t TYPE) -o DIR [--force]`: the latest bundle, checked by the
 * core as a firmware job checks it (structure, image SHA-256, the signature by one of the service's
 * release keys) and kept in its cache (`downloads.firmware`), then saved as `<type>-<version>.zip`
 * (named here from the checked bundle, never from the service's Content-Disposition). A refused
 * bundle is neither kept nor saved. An existing file is kept unless --force.
 */
export async function firmwareDownload(
  ctx: CliContext,
  options: { serial?: string; type?: string; output: string; force?: boolean },
): Promise<number> {
  if ((options.serial === undefined) === (options.type === undefined))
    throw new CliError(t('cli:firmware.serialOrType'), EXIT.usage);
  const deviceType = options.type === undefined ? undefined : deviceTypeArgument(options.type);
  await ctx.account();
  const dir = await outputDir(options.output);
  const core = await ctx.jobs();
  const download = await core.invoke(
    'downloads.firmware',
    deviceType !== undefined ? { deviceType } : { serialNumber: options.serial! },
  );
  if (download.outcome === 'refused') throw refusal('firmware bundle', download.message);
  const { bytes, version, sha256, signedBy } = download;
  const path = await saveDownload(dir, `${download.deviceType}-${version}.zip`, bytes, { force: options.force });
  if (ctx.out.json)
    ctx.out.jsonLine({ path, deviceType: download.deviceType, version, size: bytes.length, sha256, signedBy });
  else
    ctx.out.line(
      t('cli:firmware.saved', {
        path,
        type: download.deviceType,
        version,
        size: bytes.length,
        signer: signedBy.name,
      }),
    );
  return EXIT.ok;
}

/** `device firmware apply SN -f FILE`: a bundle the technician has. */
export async function firmwareApply(
  ctx: CliContext,
  serialNumber: string | undefined,
  options: { file: string; link?: string[]; force?: boolean },
  interrupt?: AbortSignal,
): Promise<number> {
  const file = await readInputFile(options.file);
  readFirmwareBundle(file.bytes); // a damaged bundle is reported before any device is looked for
  const { targets, missing } = await resolveTargets(ctx, {
    serialNumbers: serialNumber ? [serialNumber] : [],
    links: options.link ?? [],
  });
  return runJobs(
    ctx,
    targets.map((target) => ({
      action: 'firmware',
      target,
      force: options.force,
      firmware: { kind: 'file', bytes: file.bytes, name: file.name },
    })),
    missing,
    interrupt,
  );
}

/** `device firmware update SN...`: the latest firmware for each device. */
export async function firmwareUpdate(
  ctx: CliContext,
  serialNumbers: string[],
  options: UpdateOptions & { force?: boolean },
  interrupt?: AbortSignal,
): Promise<number> {
  const { targets, missing } = await resolveTargets(ctx, {
    serialNumbers,
    links: options.link ?? [],
    all: options.all,
  });
  return runJobs(
    ctx,
    targets.map((target) => ({ action: 'firmware', target, force: options.force })),
    missing,
    interrupt,
  );
}

/** `device update SN...`: latest firmware, then the configuration file. */
export async function deviceUpdate(
  ctx: CliContext,
  serialNumbers: string[],
  options: UpdateOptions & { force?: boolean },
  interrupt?: AbortSignal,
): Promise<number> {
  const { targets, missing } = await resolveTargets(ctx, {
    serialNumbers,
    links: options.link ?? [],
    all: options.all,
  });
  return runJobs(
    ctx,
    targets.map((target) => ({ action: 'both', target, force: options.force })),
    missing,
    interrupt,
    (finals) => confirmAppliedParameters(ctx, finals, options),
  );
}
