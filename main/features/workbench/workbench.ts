import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import { parseLinkSpec } from '../../devices';
import type { DeviceListEvent, DiscoveredDevice } from '../../devices/discovery';
import { compareVersions } from '../../../domain/firmware-version';
import type { AttachedDeviceView, DeviceNeeds, JobView } from '../../../contract/index';
import type { CoreLog } from '../../engine/core-log';
import type { EventHub } from '../../engine/event-hub';
import type { Account } from '../../engine/account';
import type { JobTarget } from './workbench-jobs';
import { notApplicableReason } from '../../engine/jobs/step-record';
import type { JobTimeline } from './job-timeline';
import { CoalescedRun } from '../../devices/util/coalesced-run';
import { frcTypeFromRecord, modelOf } from '../../devices/vendor';
import { sharedSerialReason, sharedSerialRefusal, sharedSerials } from '../../../domain/shared-serial';

/** The live list of attached devices (main/devices/discovery's LiveDeviceList has this shape). */
export interface DeviceSource {
  start(): Promise<void>;
  stop(): Promise<void>;
  devices(): DiscoveredDevice[];
  on(listener: (event: DeviceListEvent) => void): () => void;
  /** Ask a device again (after a job changed its firmware or configuration). */
  refresh(link: string): Promise<DiscoveredDevice | undefined>;
  /** Where serial ports beyond USB 0xD101 are looked for; a source without serial ports ignores it. */
  setPortGlobs?(portGlobs: readonly string[]): Promise<void>;
}

export interface WorkbenchDeps {
  source: DeviceSource;
  /** The signed-in account, or null; needs are only known with one. */
  account(): Account | null;
  events: EventHub;
  log: CoreLog;
  /** Where finished jobs are kept per device (the row's timeline, the support report); none in tests that do not look. */
  timeline?: JobTimeline;
}

interface JobMark {
  jobId: string;
  /** A job runs on the link now: the list neither probes nor drops it while the device reboots. */
  busy: boolean;
}

/**
 * The devices attached now, live (the device list finds and identifies them), with what each
 * needs worked out against the service and the job on it. When a job ends its device is asked
 * again (new firmware, new syncId) and its needs are worked out again.
 */
export class Workbench {
  /**
   * What each link's device needs, and for a vendor FRC the type the service's record gives it (the
   * device cannot tell an SRC Pro from an NSC); null while no account can say.
   */
  private readonly judged = new Map<string, { needs: DeviceNeeds; frcType: DeviceType | undefined } | null>();
  private readonly jobs = new Map<string, JobMark>();
  /** Finished jobs already written to the timeline (a finished job is reported by its last progress batch and by its end). */
  private readonly recorded = new Set<string>();
  private offList: (() => void) | null = null;
  private readonly needsRefresh = new CoalescedRun(
    async () => {
      await Promise.all(this.deps.source.devices().map((d) => this.computeNeeds(d)));
      this.changed();
    },
    () => this.closed,
  );
  private closed = false;

  constructor(private readonly deps: WorkbenchDeps) {}

  async start(): Promise<void> {
    this.offList = this.deps.source.on((event) => this.onListEvent(event));
    await this.deps.source.start();
    this.changed();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.offList?.();
    await this.deps.source.stop();
  }

  /** Whether a job holds the link (the device list leaves it alone then). */
  isBusy(link: string): boolean {
    return this.jobs.get(link)?.busy ?? false;
  }

  devices(): AttachedDeviceView[] {
    const attached = this.deps.source.devices();
    const shared = sharedSerials(attached);
    return attached.map((d) => this.view(d, shared.get(d.serialNumber) ?? null));
  }

  /** Ask every idle device again and work out its needs. */
  async rescan(): Promise<AttachedDeviceView[]> {
    await Promise.all(
      this.deps.source
        .devices()
        .filter((d) => !this.isBusy(d.link))
        .map((d) => this.deps.source.refresh(d.link).catch(() => undefined)),
    );
    await this.refreshNeeds();
    return this.devices();
  }

  /** The devices behind these links, ready for jobs. None whose serial number another attached device claims too: its job's confirmation would speak for a device that may be another. */
  targets(linkIds: readonly string[]): JobTarget[] {
    const present = this.deps.source.devices();
    const shared = sharedSerials(present);
    return linkIds.map((linkId) => {
      const device = present.find((d) => d.link === linkId);
      if (!device) throw new Error(`${linkId} is not attached any more.`);
      const refusal = sharedSerialRefusal(shared, device.serialNumber);
      if (refusal) throw new Error(refusal);
      if (!isDeviceType(device.deviceType))
        throw new Error(`${device.serialNumber} reports an unknown type ${device.deviceType}.`);
      return { linkId, spec: parseLinkSpec(linkId), serialNumber: device.serialNumber, deviceType: device.deviceType };
    });
  }

  /** Throws the technician's reason when another attached device claims the serial number of the device on this link (a retry starts a job too). */
  refuseSharedSerial(linkId: string): void {
    const present = this.deps.source.devices();
    const device = present.find((d) => d.link === linkId);
    const refusal = device ? sharedSerialRefusal(sharedSerials(present), device.serialNumber) : null;
    if (refusal) throw new Error(refusal);
  }

  /** Jobs tell the workbench which link they occupy and when they let it go. */
  noteJob(job: JobView, finished: boolean): void {
    if (finished && job.finishedAt !== null && this.deps.timeline && !this.recorded.has(job.jobId)) {
      this.recorded.add(job.jobId);
      void this.deps.timeline.record(job);
    }
    const wasBusy = this.isBusy(job.linkId);
    this.jobs.set(job.linkId, { jobId: job.jobId, busy: !finished });
    if (finished && wasBusy) {
      void this.deps.source
        .refresh(job.linkId)
        .catch(() => undefined)
        .then(() => this.refreshNeeds());
    } else if (!wasBusy && !finished) {
      this.changed();
    }
  }

  /** A device's last finished jobs, newest first (by serial number, or by link for one that never said who it is). */
  async timeline(device: string): Promise<JobView[]> {
    return this.deps.timeline ? this.deps.timeline.of(device) : [];
  }

  /** Every device's last jobs, for the support report. */
  async timelines(): Promise<Record<string, JobView[]>> {
    return this.deps.timeline ? this.deps.timeline.all() : {};
  }

  /**
   * Work out again what every device needs (the session, the registry or a configuration changed).
   * Calls while one runs are folded into one more run after it.
   */
  refreshNeeds(): Promise<void> {
    return this.needsRefresh.request();
  }

  private onListEvent(event: DeviceListEvent): void {
    const { device } = event;
    if (event.type === 'removed') {
      this.judged.delete(device.link);
      if (!this.isBusy(device.link)) this.jobs.delete(device.link);
      this.deps.log.info('workbench', `${device.serialNumber} detached (${device.link}).`);
      this.changed();
      return;
    }
    if (event.type === 'added') {
      this.deps.log.info(
        'workbench',
        `${device.serialNumber} (${device.deviceType}, firmware ${device.firmwareVersion}) attached on ${device.link}.`,
      );
    }
    this.changed();
    void this.computeNeeds(device).then(() => this.changed());
  }

  private async computeNeeds(device: DiscoveredDevice): Promise<void> {
    const account = this.deps.account();
    const judged = account ? await judgeDevice(account, device) : null;
    // Only the vendor's FRC family leaves its product to the record.
    const frcType =
      judged && device.protocol === 'vendor' ? frcTypeFromRecord(device.deviceType, judged.recordedType) : undefined;
    this.judged.set(device.link, judged ? { needs: judged.needs, frcType } : null);
  }

  private view(device: DiscoveredDevice, claimedBy: readonly string[] | null): AttachedDeviceView {
    const judged = this.judged.get(device.link);
    const frcType = judged?.frcType;
    if (frcType !== undefined && frcType !== device.deviceType)
      device = { ...device, deviceType: frcType, model: modelOf(frcType) };
    return {
      linkId: device.link,
      linkKind: device.linkKind,
      address: address(device.link),
      serialNumber: device.serialNumber,
      deviceType: isDeviceType(device.deviceType) ? device.deviceType : null,
      model: device.model,
      firmwareVersion: device.firmwareVersion,
      configSyncId: device.configSyncId,
      error: null,
      needs: judged?.needs ?? null,
      activeJobId: this.jobs.get(device.link)?.jobId ?? null,
      sharedSerial: claimedBy
        ? { links: [...claimedBy], reason: sharedSerialReason(device.serialNumber, claimedBy) }
        : null,
      protocol: device.protocol ?? 'provisioner',
    };
  }

  private changed(): void {
    if (!this.closed) this.deps.events.emit('workbench.devicesChanged', this.devices());
  }
}

/** Newer firmware than the device runs; a configuration not applied or outdated. Failures say why in the reason. */
export async function needsOf(
  account: Account,
  device: Pick<DiscoveredDevice, 'serialNumber' | 'firmwareVersion' | 'configSyncId' | 'protocol'>,
): Promise<DeviceNeeds> {
  return (await judgeDevice(account, device)).needs;
}

/** What a device needs, and the type the service's record gives its serial number (undefined when none was read). */
async function judgeDevice(
  account: Account,
  device: Pick<DiscoveredDevice, 'serialNumber' | 'firmwareVersion' | 'configSyncId' | 'protocol'>,
): Promise<{ needs: DeviceNeeds; recordedType: string | undefined }> {
  let recordedType: string | undefined;
  const firmware: DeviceNeeds['firmware'] = { needed: false, latestVersion: null, reason: null };
  const configuration: DeviceNeeds['configuration'] = { needed: false, syncId: null, reason: null, blocked: null };
  try {
    const latest = await account.client.devices.firmwareVersion(device.serialNumber, { retry: false });
    firmware.latestVersion = latest.version;
    firmware.needed = compareVersions(latest.version, device.firmwareVersion) > 0;
    firmware.reason = firmware.needed
      ? `Runs ${device.firmwareVersion}; ${latest.version} is available.`
      : `Runs the latest firmware, ${device.firmwareVersion}.`;
  } catch (err) {
    firmware.reason = `Latest firmware unknown: ${messageOf(err)}`;
  }
  try {
    const page = await account.client.devices.list({ serial: device.serialNumber, limit: 1 }, { retry: false });
    const record = page.items[0];
    recordedType = record?.deviceType;
    if (!record) {
      configuration.reason = `${device.serialNumber} is not registered in ${account.orgId}.`;
      configuration.blocked = {
        code: 'DEVICE_NOT_REGISTERED',
        reason: notApplicableReason('DEVICE_NOT_REGISTERED', device.serialNumber)!,
      };
    } else if (!record.configurationId) {
      configuration.reason = 'In no configuration.';
      // The same words the job's skipped step would use, said before anything starts.
      configuration.blocked = {
        code: 'DEVICE_NOT_IN_CONFIGURATION',
        reason: notApplicableReason('DEVICE_NOT_IN_CONFIGURATION', device.serialNumber)!,
      };
    } else {
      const name = record.configurationName ?? record.configurationId;
      configuration.syncId = record.deployedSyncId;
      // The vendor's EPC names no file it holds (docs/vendor-devices.md): the service's record of
      // the apply, read back value by value when it was made, is all a list can go by.
      const namesNoFile = device.configSyncId === null && device.protocol === 'vendor';
      if (namesNoFile && record.deployStatus === 'Deployed') {
        configuration.reason = `The service records “${name}” as applied; the device names no file it holds, so Verify reads its settings back to be sure.`;
      } else {
        const holdsCurrent = device.configSyncId !== null && device.configSyncId === record.deployedSyncId;
        configuration.needed = record.deployStatus !== 'Deployed' || !holdsCurrent;
        configuration.reason = configuration.needed
          ? `Configuration “${name}” is ${record.deployStatus === 'Outdated' ? 'newer than what the device holds' : 'not applied yet'}.`
          : `Holds the current configuration “${name}”.`;
      }
    }
  } catch (err) {
    configuration.reason = `Configuration state unknown: ${messageOf(err)}`;
  }
  return { needs: { firmware, configuration }, recordedType };
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isDeviceType(value: string): value is DeviceType {
  return (DEVICE_TYPES as readonly string[]).includes(value);
}

/** 'serial:/dev/ttyACM0' → '/dev/ttyACM0'; 'udp:10.0.0.5:5683' → '10.0.0.5:5683'. */
function address(link: string): string {
  const colon = link.indexOf(':');
  return colon < 0 ? link : link.slice(colon + 1);
}
