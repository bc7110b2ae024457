import { DEVICE_TYPES, type DeviceType } from '../../../domain/device-types';
import type { DeviceInfo } from '../../devices';
import { compareVersions } from '../../provisioning/firmware-cache';
import type { AttachedDeviceView, DeviceNeeds, JobView } from '../../../preload/contract';
import type { CoreLog } from '../core-log';
import type { EventHub } from '../event-hub';
import type { Account } from '../session';
import type { DiscoveredLink, LinkDiscovery } from './link-discovery';
import type { JobTarget } from './provisioning-service';
import { messageOf } from './minimal-provisioning';

export interface BenchDeps {
  discovery: LinkDiscovery;
  /** GET /info over the link (opening and closing it). */
  identify(link: DiscoveredLink): Promise<DeviceInfo>;
  /** The signed-in account, or null; needs are only known with one. */
  account(): Account | null;
  events: EventHub;
  log: CoreLog;
  /** How often to look for devices arriving and leaving. Default 1000 ms. */
  pollMs?: number;
}

interface Entry {
  link: DiscoveredLink;
  info: DeviceInfo | null;
  error: string | null;
  needs: DeviceNeeds | null;
  /** The running or last job on the link, for the renderer's row. */
  activeJobId: string | null;
  /** A job runs on the link now: do not identify, do not drop the row while the device reboots. */
  busy: boolean;
  identifying: boolean;
}

/**
 * The devices attached now, kept live: the discovery is polled, new links are identified (GET
 * /info), and what each device needs is worked out against the service. A link with a job on it is
 * left alone until the job ends, then identified again (new firmware, new syncId).
 */
export class Bench {
  private readonly entries = new Map<string, Entry>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private scanning: Promise<void> | null = null;
  private closed = false;
  private readonly pollMs: number;

  constructor(private readonly deps: BenchDeps) {
    this.pollMs = deps.pollMs ?? 1000;
  }

  start(): void {
    const tick = () => {
      if (this.closed) return;
      void this.scan().finally(() => {
        if (!this.closed) this.timer = setTimeout(tick, this.pollMs);
      });
    };
    tick();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  devices(): AttachedDeviceView[] {
    return [...this.entries.values()].sort((a, b) => a.link.linkId.localeCompare(b.link.linkId)).map(toView);
  }

  /** Look again now, and identify every idle device again. */
  async rescan(): Promise<AttachedDeviceView[]> {
    await this.scan();
    await Promise.all([...this.entries.values()].filter((e) => !e.busy).map((e) => this.identify(e)));
    return this.devices();
  }

  /** The identified devices behind these links, ready for jobs; refuses unidentified ones with the reason. */
  targets(linkIds: readonly string[]): JobTarget[] {
    return linkIds.map((linkId) => {
      const entry = this.entries.get(linkId);
      if (!entry) throw new Error(`${linkId} is not attached any more.`);
      const info = entry.info;
      if (!info) throw new Error(`${linkId} has not been identified${entry.error ? `: ${entry.error}` : ''}.`);
      if (!(DEVICE_TYPES as readonly string[]).includes(info.deviceType)) throw new Error(`${info.serialNumber} reports an unknown type ${info.deviceType}.`);
      return { linkId, spec: entry.link.spec, serialNumber: info.serialNumber, deviceType: info.deviceType as DeviceType };
    });
  }

  /** Jobs tell the bench which link they occupy, and when they let it go. */
  noteJob(job: JobView, finished: boolean): void {
    const entry = this.entries.get(job.linkId);
    if (!entry) return;
    entry.activeJobId = job.jobId;
    entry.busy = !finished;
    if (finished) void this.identify(entry);
    else this.changed();
  }

  /** The session changed: what devices need depends on the organization. */
  async refreshNeeds(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.computeNeeds(e)));
    this.changed();
  }

  private scan(): Promise<void> {
    this.scanning ??= (async () => {
      try {
        const links = await this.deps.discovery.scan();
        const present = new Set(links.map((l) => l.linkId));
        let changed = false;
        for (const [linkId, entry] of this.entries) {
          // A device with a job on it may vanish for a moment while it reboots: keep its row.
          if (!present.has(linkId) && !entry.busy) {
            this.entries.delete(linkId);
            this.deps.log.info('bench', `${entry.info?.serialNumber ?? linkId} detached (${linkId}).`);
            changed = true;
          }
        }
        for (const link of links) {
          if (this.entries.has(link.linkId)) continue;
          const entry: Entry = { link, info: null, error: null, needs: null, activeJobId: null, busy: false, identifying: false };
          this.entries.set(link.linkId, entry);
          changed = true;
          void this.identify(entry);
        }
        if (changed) this.changed();
      } catch (err) {
        this.deps.log.warn('bench', `Looking for devices failed: ${messageOf(err)}`);
      } finally {
        this.scanning = null;
      }
    })();
    return this.scanning;
  }

  private async identify(entry: Entry): Promise<void> {
    if (entry.identifying || entry.busy) return;
    entry.identifying = true;
    try {
      const info = await this.deps.identify(entry.link);
      const first = entry.info === null;
      entry.info = info;
      entry.error = null;
      if (first) this.deps.log.info('bench', `${info.serialNumber} (${info.deviceType}, firmware ${info.firmwareVersion}) attached on ${entry.link.linkId}.`);
      await this.computeNeeds(entry);
    } catch (err) {
      entry.error = `No answer to the info request: ${messageOf(err)}`;
    } finally {
      entry.identifying = false;
      if (this.entries.get(entry.link.linkId) === entry) this.changed();
    }
  }

  private async computeNeeds(entry: Entry): Promise<void> {
    const account = this.deps.account();
    const info = entry.info;
    if (!account || !info) {
      entry.needs = null;
      return;
    }
    entry.needs = await needsOf(account, info);
  }

  private changed(): void {
    this.deps.events.emit('bench.devicesChanged', this.devices());
  }
}

/** Newer firmware than the device runs; a configuration not applied or outdated. Failures say why in the reason. */
export async function needsOf(account: Account, info: DeviceInfo): Promise<DeviceNeeds> {
  const firmware: DeviceNeeds['firmware'] = { needed: false, latestVersion: null, reason: null };
  const configuration: DeviceNeeds['configuration'] = { needed: false, syncId: null, reason: null };
  try {
    const latest = await account.client.devices.firmwareVersion(info.serialNumber, { retry: false });
    firmware.latestVersion = latest.version;
    firmware.needed = compareVersions(latest.version, info.firmwareVersion) > 0;
    firmware.reason = firmware.needed ? `Runs ${info.firmwareVersion}; ${latest.version} is available.` : `Runs the latest firmware, ${info.firmwareVersion}.`;
  } catch (err) {
    firmware.reason = `Latest firmware unknown: ${messageOf(err)}`;
  }
  try {
    const page = await account.client.devices.list({ serial: info.serialNumber, limit: 1 }, { retry: false });
    const record = page.items[0];
    if (!record) {
      configuration.reason = `${info.serialNumber} is not registered in ${account.orgId}.`;
    } else if (!record.configurationId) {
      configuration.reason = 'In no configuration.';
    } else {
      const applied = info.configSyncId !== null && info.configSyncId === record.deployedSyncId;
      configuration.needed = record.deployStatus !== 'Deployed' || !applied;
      configuration.syncId = record.deployedSyncId;
      configuration.reason = configuration.needed
        ? `Configuration “${record.configurationName ?? record.configurationId}” is ${record.deployStatus === 'Outdated' ? 'newer than what the device holds' : 'not applied yet'}.`
        : `Holds the current configuration “${record.configurationName ?? ''}”.`;
    }
  } catch (err) {
    configuration.reason = `Configuration state unknown: ${messageOf(err)}`;
  }
  return { firmware, configuration };
}

function toView(entry: Entry): AttachedDeviceView {
  const info = entry.info;
  return {
    linkId: entry.link.linkId,
    linkKind: entry.link.kind,
    address: entry.link.address,
    serialNumber: info?.serialNumber ?? null,
    deviceType: info && (DEVICE_TYPES as readonly string[]).includes(info.deviceType) ? (info.deviceType as DeviceType) : null,
    model: info?.model ?? null,
    firmwareVersion: info?.firmwareVersion ?? null,
    configSyncId: info?.configSyncId ?? null,
    error: entry.error,
    needs: entry.needs,
    activeJobId: entry.activeJobId,
  };
}
