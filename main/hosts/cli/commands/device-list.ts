import {
  deviceSync,
  latestFirmwareByType,
  observationOf,
  SYNC_STATE_LABELS,
  type AttachedDevice,
  type DeviceIdentity,
  type DeviceSync,
  type ReconcileOutcome,
} from '../../../engine/jobs';
import { commissioningShortText, commissioningViewOf } from '../../../../domain/ledger-commissioning';
import { sharedSerialReason, sharedSerialRefusal, sharedSerials } from '../../../../domain/shared-serial';
import { openWorkstationLedger } from '../../../engine/ledger';
import { frcTypeFromRecord, modelOf } from '../../../devices/vendor';
import type { CliContext } from '../context';
import { EXIT } from '../errors';
import { t } from '../cli-language';
import { syncDetail } from '../sync-words';

/** How a device is attached, in the run's language (IP and BLE are the same words everywhere). */
const interfaceText = (kind: AttachedDevice['linkKind']): string =>
  kind === 'serial' ? t('cli:list.interface.serial') : kind === 'udp' ? 'IP (UDP)' : 'BLE';
/** Which protocol a device speaks, as the list shows it (docs/vendor-devices.md). */
const PROTOCOL: Record<NonNullable<AttachedDevice['protocol']>, string> = {
  provisioner: 'Provisioner',
  vendor: 'FORT',
};

export type Identified = AttachedDevice & { identity: DeviceIdentity };

/** When the service last heard what a device runs, to the second, in UTC; "never" before the first time. */
export function observedText(at: string | null): string {
  return at === null ? t('cli:list.observedNever') : `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** What listing told of an identified device: how it stands against the service, and what was confirmed. */
interface Standing {
  sync: DeviceSync;
  confirmation: ReconcileOutcome['confirmation'];
  /** Jobs an earlier run left unfinished on it, judged now from what it runs. */
  interrupted: Array<{ kind: 'firmware' | 'configuration'; jobId: string; success: boolean }>;
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
  const devices = await ctx.finder().list({ extraLinks: options.link ?? [] });
  const identified = devices.filter((d): d is Identified => d.identity !== null);
  const shared = sharedSerials(identified.map((d) => ({ serialNumber: d.identity.serialNumber, link: d.link })));
  const believed = identified.filter((d) => !shared.has(d.identity.serialNumber));
  const standings = believed.length > 0 ? await reconcileListed(ctx, believed) : new Map<string, Standing>();
  const sharedReason = (d: AttachedDevice): string | null =>
    d.identity ? sharedSerialRefusal(shared, d.identity.serialNumber) : null;
  const exit = shared.size > 0 ? EXIT.failed : EXIT.ok;
  // Commissioning is told by this workstation's ledger: what it applied, verified and tested.
  const ledgerEntries =
    identified.length > 0 ? await openWorkstationLedger(ctx.dirs.data, ctx.noteQuarantined).entries() : [];
  const commissioningOfDevice = (d: AttachedDevice) =>
    d.identity ? commissioningViewOf(ledgerEntries, d.identity.serialNumber) : null;
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
 * Confirms what the listed devices report, then judges each against the service. Without a
 * service to ask (none reachable, no workspace) every device reads "unknown" and the list is still
 * shown: listing must work on a plant floor without a network.
 */
async function reconcileListed(ctx: CliContext, identified: readonly Identified[]): Promise<Map<string, Standing>> {
  const observedAt = new Date();
  const standings = new Map<string, Standing>();
  let outcomes: ReconcileOutcome[] = [];
  let latest = new Map<string, string | null | undefined>();
  try {
    const provisioning = await ctx.provisioning();
    outcomes = await provisioning.reconcile(identified.map((d) => observationOf(d.identity, observedAt)));
    // A vendor FRC cannot tell an SRC Pro from an NSC: the service's record of its serial number can.
    identified.forEach((d, i) => {
      const recorded =
        d.protocol === 'vendor' ? frcTypeFromRecord(d.identity.deviceType, outcomes[i]?.record?.deviceType) : undefined;
      if (recorded !== undefined) d.identity = { ...d.identity, deviceType: recorded, model: modelOf(recorded) };
    });
    latest = await latestFirmwareByType(
      (await ctx.account()).client,
      identified.map((d) => d.identity.deviceType),
    );
  } catch (err) {
    // The list itself is still worth showing; the JSON says "unknown" per device instead.
    if (!ctx.out.json)
      ctx.out.note(t('cli:list.standingUnknown', { reason: err instanceof Error ? err.message : String(err) }));
  }
  identified.forEach((d, i) => {
    const outcome = outcomes[i];
    // The vendor's EPC names no file it holds: its configuration is not judged from a syncId here.
    const namesNoFile = d.protocol === 'vendor' && d.identity.deviceType === 'EPC';
    const sync = deviceSync({ ...d.identity, namesNoFile }, outcome?.record, latest.get(d.identity.deviceType));
    // What this contact confirmed is what the service now holds as last observed.
    const confirmed = outcome !== undefined && outcome.confirmations.length > 0;
    standings.set(d.link, {
      sync: confirmed ? { ...sync, lastObservedAt: observedAt.toISOString() } : sync,
      confirmation: outcome?.confirmation ?? 'none',
      interrupted: (outcome?.interrupted ?? []).map(({ intent, success }) => ({
        kind: intent.kind,
        jobId: intent.jobId,
        success,
      })),
    });
  });
  return standings;
}
