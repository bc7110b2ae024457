import type { DeviceRecord } from '../../../../domain/registered-device-record';
import {
  deviceSync,
  latestFirmwareByType,
  SYNC_STATE_LABELS,
  type DeviceReading,
  type DeviceSync,
} from '../../../engine/jobs';
import { settingsReadBack } from '../../../engine/jobs/settings-check';
import { workstationId } from '../../../engine/jobs/workstation';
import { openWorkstationLedger, sendLedger } from '../../../engine/ledger';
import { verifyRecord } from '../../../engine/ledger/verify-record';
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
  const attached = await ctx.finder().list({ extraLinks: links });
  const identified = attached.filter((d): d is Identified => d.identity !== null);
  const wanted = identified.filter(
    (d) => options.all || serialNumbers.includes(d.identity.serialNumber) || links.includes(d.link),
  );
  const missing = serialNumbers.filter((sn) => !identified.some((d) => d.identity.serialNumber === sn));
  if (options.all && wanted.length === 0 && missing.length === 0) throw new CliError(t('cli:targets.allNone'));
  if (options.parameters) return deviceVerifyParameters(ctx, wanted, missing, options);

  const { client } = await ctx.account();
  const records = new Map<string, DeviceRecord | null | undefined>();
  await Promise.all(
    wanted.map(async (d) => {
      const serial = d.identity.serialNumber;
      try {
        const page = await client.devices.list({ serial, limit: 1 }, { retry: false });
        records.set(serial, page.items.find((r) => r.serialNumber === serial) ?? null);
      } catch {
        records.set(serial, undefined);
      }
    }),
  );
  const latest = await latestFirmwareByType(
    client,
    wanted.map((d) => d.identity.deviceType),
  );
  const readings = await Promise.all(wanted.map((d) => readingOf(ctx, d, records.get(d.identity.serialNumber))));
  const verdicts = wanted.map((d, i) => ({
    device: d,
    sync: deviceSync(readings[i]!, records.get(d.identity.serialNumber), latest.get(d.identity.deviceType)),
  }));

  await recordVerdicts(ctx, verdicts);

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

/**
 * What the device tells of itself. A device that names no configuration file it holds (the
 * vendor's EPC) while the service expects one has its running settings read back against the file
 * the service serves it now, value by value: equal settings are not a drift (device-sync.ts). When
 * they cannot be read, that is said and the verdict stands on the identity alone.
 */
async function readingOf(
  ctx: CliContext,
  device: Identified,
  record: DeviceRecord | null | undefined,
): Promise<DeviceReading> {
  const { identity } = device;
  if (device.protocol !== 'vendor' || identity.configSyncId !== null || !record?.configurationId) return identity;
  const serialNumber = identity.serialNumber;
  try {
    const { client } = await ctx.account();
    const file = await (await ctx.provisioning()).configFiles().resolve(client.devices, serialNumber);
    const connection = await ctx.connector().connect({ kind: 'link', spec: device.link, serialNumber });
    try {
      const readBack = await settingsReadBack(connection, file);
      return readBack ? { ...identity, settingsReadBack: readBack } : identity;
    } finally {
      await connection.close().catch(() => undefined);
    }
  } catch (error) {
    ctx.out.note(
      t('cli:verify.noReadBack', {
        serial: serialNumber,
        reason: error instanceof Error ? error.message : String(error),
      }),
    );
    return identity;
  }
}

/**
 * Each device looked at goes into this workstation's ledger, and to the organization's chain when
 * the service answers (`ledger verify` sends what it could not). A ledger that cannot be written is
 * said, and the verdict still stands: it changed nothing on the device.
 */
async function recordVerdicts(
  ctx: CliContext,
  verdicts: readonly { device: Identified; sync: DeviceSync }[],
): Promise<void> {
  if (verdicts.length === 0) return;
  const account = await ctx.account();
  const ledger = openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined);
  try {
    const workstation = await workstationId(ctx.dirs.data);
    for (const { device, sync } of verdicts) {
      await ledger.append(
        verifyRecord({
          serialNumber: device.identity.serialNumber,
          workstation,
          serviceUrl: account.serviceUrl,
          orgId: account.orgId,
          link: device.link,
          sync,
          at: new Date(),
        }),
      );
    }
  } catch (error) {
    ctx.out.note(t('cli:verify.ledgerFailed', { reason: error instanceof Error ? error.message : String(error) }));
    return;
  }
  await sendLedger(ledger, account).catch(() => undefined);
}

function verdictJson(device: Identified, sync: DeviceSync) {
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
