import type {
  AttachedStandingView,
  CommissioningView,
  DeviceIdentityView,
  ReadBackDeviceView,
} from '../../../../contract/index';
import { commissioningShortText } from '../../../../domain/ledger-commissioning';
import { sharedSerialReason, sharedSerialRefusal, sharedSerials } from '../../../../domain/shared-serial';
import { SYNC_STATE_LABELS } from '../../../../domain/sync-detail';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { t } from '../cli-language';
import { syncDetail } from '../sync-words';

/** How a device is attached, in the run's language (IP and BLE are the same words everywhere). */
const interfaceText = (kind: ReadBackDeviceView['linkKind']): string =>
  kind === 'serial' ? t('cli:list.interface.serial') : kind === 'udp' ? 'IP (UDP)' : 'BLE';
/** Which protocol a device speaks, as the list shows it (docs/vendor-devices.md). */
const PROTOCOL: Record<NonNullable<ReadBackDeviceView['protocol']>, string> = {
  provisioner: 'Provisioner',
  vendor: 'FORT',
};

export type Identified = ReadBackDeviceView & { identity: DeviceIdentityView };
const isIdentified = (d: ReadBackDeviceView): d is Identified => d.identity !== null;

/** When the service last heard what a device runs, to the second, in UTC; "never" before the first time. */
export function observedText(at: string | null): string {
  return at === null ? t('cli:list.observedNever') : `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * `device list`: every attached device, identified over its link, and how it stands against the
 * service (in sync, behind, drift, unknown). Reading a device is an observation: what it runs that
 * the service has not recorded is confirmed to it (reconcile.ts), and jobs an earlier run left
 * unfinished on it are judged from what it runs. Two attached devices that claim one serial number
 * are listed, but neither is believed (domain/shared-serial.ts): nothing read of them is confirmed,
 * the command names both links and fails.
 */
export async function deviceList(ctx: CliContext, options: { link?: string[] }): Promise<number> {
  const listed = await ctx.core().invoke('readback.attached', { links: options.link ?? [] });
  const shared = sharedSerials(
    listed.filter(isIdentified).map((d) => ({ serialNumber: d.identity.serialNumber, link: d.link })),
  );
  const believed = listed.filter(isIdentified).filter((d) => !shared.has(d.identity.serialNumber));
  const standings =
    believed.length > 0 ? await reconcileListed(ctx, believed) : new Map<string, AttachedStandingView>();
  // As observed: a vendor FRC's type is the one the service's record tells.
  const devices = listed.map((d) => {
    const standing = standings.get(d.link);
    return standing ? { ...d, identity: standing.identity } : d;
  });
  const identified = devices.filter(isIdentified);
  const sharedReason = (d: ReadBackDeviceView): string | null =>
    d.identity ? sharedSerialRefusal(shared, d.identity.serialNumber) : null;
  const exit = shared.size > 0 ? EXIT.failed : EXIT.ok;
  // Commissioning is told by this workstation's ledger: what it applied, verified and tested.
  const commissioning = new Map<string, CommissioningView>(
    identified.length > 0
      ? (
          await ctx
            .core()
            .invoke('readback.commissioning', { serialNumbers: identified.map((d) => d.identity.serialNumber) })
        ).map((c) => [c.serialNumber, c.commissioning])
      : [],
  );
  const commissioningOfDevice = (d: ReadBackDeviceView) =>
    d.identity ? (commissioning.get(d.identity.serialNumber) ?? null) : null;
  if (ctx.out.json) {
    ctx.out.line(
      JSON.stringify(
        devices.map((d) => {
          const standing = standings.get(d.link);
          return {
            connection: d.link,
            interface: d.linkKind,
            protocol: d.protocol ?? null,
            model: d.identity?.model ?? null,
            deviceType: d.identity?.deviceType ?? null,
            serialNumber: d.identity?.serialNumber ?? null,
            firmwareVersion: d.identity?.firmwareVersion ?? null,
            configSyncId: d.identity?.configSyncId ?? null,
            state: standing?.sync.state ?? null,
            stateText: standing?.sync.text ?? null,
            expectedFirmwareVersion: standing?.sync.firmware.expected ?? null,
            expectedSyncId: standing?.sync.configuration.expected ?? null,
            lastObservedAt: standing?.sync.lastObservedAt ?? null,
            confirmation: standing?.confirmation ?? 'none',
            interruptedJobs: standing?.interrupted ?? [],
            commissioning: commissioningOfDevice(d),
            sharedSerial: sharedReason(d),
            error: d.error,
          };
        }),
        null,
        2,
      ),
    );
    return exit;
  }
  if (devices.length === 0) {
    ctx.out.line(t('cli:list.none'));
    return EXIT.ok;
  }
  ctx.out.table(
    [
      t('cli:list.header.connection'),
      t('cli:list.header.model'),
      t('cli:list.header.interface'),
      t('cli:list.header.protocol'),
      t('cli:list.header.serialNumber'),
      t('cli:list.header.firmware'),
      t('cli:list.header.state'),
      t('cli:list.header.commissioning'),
      t('cli:list.header.lastObserved'),
    ],
    devices.map((d) => {
      const standing = standings.get(d.link);
      return [
        d.link,
        d.identity?.model ?? '?',
        interfaceText(d.linkKind),
        d.protocol ? PROTOCOL[d.protocol] : '?',
        d.identity?.serialNumber ?? `? (${d.error ?? t('cli:targets.noAnswer')})`,
        d.identity?.firmwareVersion ?? '?',
        standing ? SYNC_STATE_LABELS[standing.sync.state] : sharedReason(d) ? t('cli:list.serialClaimedTwice') : '?',
        ((c) => (c ? commissioningShortText(c) : '?'))(commissioningOfDevice(d)),
        standing ? observedText(standing.sync.lastObservedAt) : '',
      ];
    }),
  );
  for (const d of identified) {
    const standing = standings.get(d.link);
    for (const job of standing?.interrupted ?? []) {
      ctx.out.note(
        t('cli:list.interrupted', { serial: d.identity.serialNumber, kind: job.kind, success: String(job.success) }),
      );
    }
    if (standing && standing.sync.state !== 'in-sync')
      ctx.out.note(`${d.identity.serialNumber}: ${syncDetail(standing.sync)}`);
  }
  for (const [serialNumber, claimedBy] of shared) ctx.out.error(sharedSerialReason(serialNumber, claimedBy));
  return exit;
}

/**
 * Confirms what the listed devices report, then judges each against the service (the core's
 * `readback.standing`). Without a service to ask (none reachable, no workspace) every device reads
 * "unknown" and the list is still shown: listing must work on a plant floor without a network.
 */
async function reconcileListed(
  ctx: CliContext,
  identified: readonly Identified[],
): Promise<Map<string, AttachedStandingView>> {
  // The account is settled (and jobs an earlier run left unfinished confirmed) only once a device is there to observe.
  let reason: string | null = null;
  try {
    await ctx.jobs();
  } catch (err) {
    reason = err instanceof Error ? err.message : String(err);
  }
  const { standings, error } = await ctx
    .core()
    .invoke('readback.standing', { links: identified.map((d) => d.link), observe: reason === null });
  reason ??= error;
  // The list itself is still worth showing; the JSON says "unknown" per device instead.
  if (reason !== null && !ctx.out.json) ctx.out.note(t('cli:list.standingUnknown', { reason }));
  return new Map(standings.map((standing) => [standing.link, standing]));
}
