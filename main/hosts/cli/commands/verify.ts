import type { DeviceSyncRecord } from '../../../../contract/index';
import { SYNC_STATE_LABELS } from '../../../../domain/sync-detail';
import type { CliContext } from '../context';
import { syncDetail } from '../sync-words';
import { t } from '../cli-language';
import { CliError, EXIT } from '../errors';
import { observedText, type Identified } from './device-list';
import { deviceVerifyParameters } from './verify-parameters';

/**
 * `device verify [SN...] [--all]`: reads each device back and says how it stands against what the
 * service expects (the latest firmware, the configuration file it serves the device now), without
 * changing anything on it: no job, no confirmation, not even the judging of interrupted jobs; only
 * this workstation's ledger records that it was looked at, and what was seen. The exit
 * code is 0 only when every device is in sync, so a line's script can gate on it.
 */
export async function deviceVerify(
  ctx: CliContext,
  serialNumbers: string[],
  options: { link?: string[]; all?: boolean; parameters?: boolean; technician?: string },
): Promise<number> {
  const links = options.link ?? [];
  if (serialNumbers.length === 0 && links.length === 0 && !options.all) {
    throw new CliError(t('cli:targets.noDevice'), EXIT.usage);
  }
  const attached = await ctx.core().invoke('readback.attached', { links });
  const identified = attached.filter((d): d is Identified => d.identity !== null);
  const wanted = identified.filter(
    (d) => options.all || serialNumbers.includes(d.identity.serialNumber) || links.includes(d.link),
  );
  const missing = serialNumbers.filter((sn) => !identified.some((d) => d.identity.serialNumber === sn));
  if (options.all && wanted.length === 0 && missing.length === 0) throw new CliError(t('cli:targets.allNone'));
  if (options.parameters) return deviceVerifyParameters(ctx, wanted, missing, options);

  // The core reads each back, judges it against the service and records it in this workstation's ledger.
  const judged = await ctx.core().invoke('readback.verify', { links: wanted.map((d) => d.link) });
  for (const { serialNumber, reason } of judged.readBackFailures)
    ctx.out.note(t('cli:verify.noReadBack', { serial: serialNumber, reason }));
  if (judged.ledgerError !== null) ctx.out.note(t('cli:verify.ledgerFailed', { reason: judged.ledgerError }));
  const verdicts = wanted.map((device, i) => ({ device, sync: judged.verdicts[i]!.sync }));

  if (ctx.out.json) {
    ctx.out.line(
      JSON.stringify(
        [...verdicts.map(({ device, sync }) => verdictJson(device, sync)), ...missing.map(missingJson)],
        null,
        2,
      ),
    );
  } else {
    for (const { device, sync } of verdicts)
      ctx.out.line(
        t('cli:verify.verdict', {
          serial: device.identity.serialNumber,
          state: syncDetail(sync),
          observed: observedText(sync.lastObservedAt),
        }),
      );
    for (const serialNumber of missing) ctx.out.error(t('cli:verify.notAttached', { serial: serialNumber }));
    const behind = verdicts.filter((v) => v.sync.state !== 'in-sync').length + missing.length;
    if (verdicts.length + missing.length > 1)
      ctx.out.line(
        behind === 0
          ? t('cli:verify.allInSync', { count: verdicts.length })
          : t('cli:verify.notInSync', { behind, total: verdicts.length + missing.length }),
      );
  }
  return missing.length === 0 && verdicts.every((v) => v.sync.state === 'in-sync') ? EXIT.ok : EXIT.failed;
}

function verdictJson(device: Identified, sync: DeviceSyncRecord) {
  return {
    serialNumber: device.identity.serialNumber,
    connection: device.link,
    state: sync.state,
    stateLabel: SYNC_STATE_LABELS[sync.state],
    text: sync.text,
    firmwareVersion: sync.firmware.version,
    expectedFirmwareVersion: sync.firmware.expected,
    configSyncId: sync.configuration.syncId,
    expectedSyncId: sync.configuration.expected,
    lastObservedAt: sync.lastObservedAt,
  };
}

function missingJson(serialNumber: string) {
  return {
    serialNumber,
    connection: null,
    state: 'unknown',
    stateLabel: 'not attached',
    text: 'not attached',
    firmwareVersion: null,
    expectedFirmwareVersion: null,
    configSyncId: null,
    expectedSyncId: null,
    lastObservedAt: null,
  };
}
