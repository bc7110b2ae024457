import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Peripheral } from '@abandonware/noble';
import type { BleCentral } from '../links/ble-central';
import { formatLinkSpec, parseLinkSpec } from '../links/link-spec';
import { discoveredFrom, type DiscoveredDevice } from './discovered-device';
import { DeviceListState, type DeviceListEvent } from './device-list';
import { bleLinkOf, linkDepsOf, multicastLinks, serialLinks, type DeviceSources } from './device-sources';
import { probeLink, type ProbeOptions } from './probe';
import { portGlobRoot, portGlobsFromEnv } from './serial-candidates';
import { CoalescedRun } from '../util/coalesced-run';

/** How long an asked-for probe waits for a port a job is letting go of (and for the device's answer). */
const REFRESH_WAIT_MS = 20_000;

/** The sources (serial ports, BLE while the list runs) and how often the list looks at them. */
export interface LiveDeviceListOptions extends DeviceSources {
  /** IP devices by address ('udp:10.0.0.5'), asked periodically, besides those the multicast request finds. */
  udpTargets?: string[];
  /** How often serial ports are listed. Default 1000 ms. */
  pollIntervalMs?: number;
  /** How often IP devices are looked for (multicast) and asked. Default 5000 ms. */
  ipPollIntervalMs?: number;
  /** A device whose link disappears is removed after this long (a reboot takes less). Default 3000 ms. */
  graceMs?: number;
  /** A BLE device not heard for this long is removed. Default 10 000 ms. */
  bleLostAfterMs?: number;
  /** ACK timeout for the GET /info probe. Default 300 ms. */
  probeAckTimeoutMs?: number;
  /**
   * How often a listed serial device that no job uses is asked again (GET /info). Its port may stay
   * while nothing answers behind it (a relay or hub cut, a device hung): it is dropped then, after
   * graceMs, as a port that disappears is. Default 5000 ms.
   */
  recheckIntervalMs?: number;
  /** A link a job is using is neither probed nor dropped. */
  isBusy?: (link: string) => boolean;
  onWarning?: (message: string) => void;
}

/**
 * The live list of attached devices: polls serial ports (and watches the port globs' directories
 * to notice plugging at once), scans BLE, looks for IP devices by multicast and asks them and the IP targets, confirms every candidate with GET /info,
 * and emits added / removed / changed. findDevices is the single look with the same sources.
 */
export class LiveDeviceList {
  private readonly state: DeviceListState;
  private readonly timers: NodeJS.Timeout[] = [];
  private watchers: FSWatcher[] = [];
  private stopBleScan: (() => Promise<void>) | undefined;
  /** One serial round at a time; a request during a round runs one more round after it. */
  private readonly serialScan = new CoalescedRun(
    () => this.serialRound(),
    () => this.stopped,
  );
  private readonly bleLastSeen = new Map<string, number>();
  private readonly bleProbing = new Set<string>();
  private readonly udpTargets = new Set<string>();
  /** IP devices the multicast request found, asked until they are gone from the list. */
  private readonly discoveredUdp = new Set<string>();
  /** performance.now() when each listed serial link last answered a probe. */
  private readonly serialAnsweredAt = new Map<string, number>();
  private stopped = true;

  constructor(private options: LiveDeviceListOptions = {}) {
    this.state = new DeviceListState(options.graceMs ?? 3000);
    for (const target of options.udpTargets ?? []) this.udpTargets.add(formatLinkSpec(parseLinkSpec(target)));
  }

  on(listener: (event: DeviceListEvent) => void): () => void {
    return this.state.on(listener);
  }

  devices(): DiscoveredDevice[] {
    return this.state.devices();
  }

  /** Starts watching; resolves once the first round (serial and IP) is done. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const { serial } = this.options;
    if (serial !== false) {
      this.timers.push(setInterval(() => void this.serialScan.request(), this.options.pollIntervalMs ?? 1000));
      this.watchPortGlobs();
    }
    if (this.options.ble) void this.startBle(this.options.ble.central);
    this.timers.push(setInterval(() => void this.scanUdp(), this.options.ipPollIntervalMs ?? 5000));
    await Promise.all([serial === false ? undefined : this.serialScan.request(), this.scanUdp()]);
  }

  /**
   * The port globs asked beside USB 0xD101 (the app's setting): the list is rescanned at once and
   * the new globs' directories are watched.
   */
  async setPortGlobs(portGlobs: readonly string[]): Promise<void> {
    if (this.options.serial === false) return;
    this.options = { ...this.options, serial: { ...this.options.serial, portGlobs } };
    if (this.stopped) return;
    this.watchPortGlobs();
    await this.serialScan.request();
  }

  /**
   * A listed device whose port is gone right now, or whose port's name was just removed or made
   * (`renamed`: for a port already listed, made again means it went first), is missing from this
   * moment: noted when the directory changes rather than at the next round, which on a busy machine
   * can come after the device was plugged in again, so that a quick re-plug is still seen (as
   * 'returned'). A port a job holds is the job's to follow.
   */
  private notePortsGone(renamed: string | undefined): void {
    for (const link of this.state.links('serial')) {
      if (this.busy(link)) continue;
      const spec = parseLinkSpec(link);
      if (spec.kind === 'serial' && (spec.path === renamed || !existsSync(spec.path))) this.state.missing(link, true);
    }
  }

  /** A port appearing in a glob's directory (a pty, an adapter's by-id link) is listed at once. */
  private watchPortGlobs(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
    const serial = this.options.serial;
    if (serial === false) return;
    for (const root of new Set((serial?.portGlobs ?? portGlobsFromEnv(process.env)).map(portGlobRoot))) {
      try {
        const watcher = watch(root, (eventType, name) => {
          this.notePortsGone(eventType === 'rename' && name ? join(root, name.toString()) : undefined);
          void this.serialScan.request();
        });
        watcher.on('error', () => undefined);
        this.watchers.push(watcher);
      } catch {
        // The directory is not there (yet): polling alone.
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
    await this.stopBleScan?.();
    this.stopBleScan = undefined;
    await this.serialScan.current;
  }

  addTarget(spec: string): Promise<void> {
    this.udpTargets.add(formatLinkSpec(parseLinkSpec(spec)));
    return this.scanUdp();
  }

  removeTarget(spec: string): void {
    const link = formatLinkSpec(parseLinkSpec(spec));
    this.udpTargets.delete(link);
    this.state.remove(link);
  }

  /** Asks a listed device again (after a job changed its firmware or configuration). */
  async refresh(link: string): Promise<DiscoveredDevice | undefined> {
    // Asked for (a job just ended, a rescan): wait a moment for a port its job is still closing.
    const answer = await this.probe(link, { whenPortInUse: 'wait', timeoutMs: REFRESH_WAIT_MS });
    if (answer.device) this.state.present(answer.device);
    return answer.device;
  }

  /** The device on the link, or none; `inUse` when a job of this process holds the port (nothing was asked). */
  private async probe(
    link: string,
    options: Pick<ProbeOptions, 'whenPortInUse' | 'timeoutMs'> = {},
  ): Promise<{ device?: DiscoveredDevice; inUse?: boolean }> {
    const result = await probeLink(link, {
      linkDeps: linkDepsOf(this.options),
      ackTimeoutMs: this.options.probeAckTimeoutMs ?? 300,
      ...options,
    });
    if (result.info) return { device: discoveredFrom(result.info, result.link, result.linkKind, result.protocol) };
    return { inUse: result.inUse === true };
  }

  private busy(link: string): boolean {
    return this.options.isBusy?.(link) ?? false;
  }

  private async serialRound(): Promise<void> {
    const serial = this.options.serial;
    if (serial === false || this.stopped) return;
    const listed = new Set<string>();
    for (const link of await serialLinks(serial ?? {}, this.warnOnce())) {
      listed.add(link);
      // A listed device is asked again if its port had vanished (it may have rebooted into new
      // firmware), or now and then while its port stays: a port with nothing answering behind it
      // (a cut relay) must not keep a device on the list.
      const answeredAt = this.serialAnsweredAt.get(link);
      const recheck =
        answeredAt === undefined || performance.now() - answeredAt >= (this.options.recheckIntervalMs ?? 5000);
      if (this.busy(link) || (this.state.has(link) && !this.state.isMissing(link) && !recheck)) {
        this.state.seen(link);
        continue;
      }
      if (this.stopped) return;
      const { device, inUse } = await this.probe(link);
      if (inUse) {
        // A job took the port after the busy check: it is there, and it is the job's now.
        if (this.state.has(link)) this.state.seen(link);
      } else if (device) {
        this.serialAnsweredAt.set(link, performance.now());
        this.state.present(device);
      } else if (this.state.has(link)) {
        this.state.missing(link);
      }
    }
    for (const link of this.state.links('serial')) {
      if (!listed.has(link) && !this.busy(link)) this.state.missing(link, true);
    }
    for (const link of this.serialAnsweredAt.keys()) if (!this.state.has(link)) this.serialAnsweredAt.delete(link);
  }

  private async scanUdp(): Promise<void> {
    for (const link of await multicastLinks(this.options, undefined, this.warnOnce())) this.discoveredUdp.add(link);
    for (const link of new Set([...this.udpTargets, ...this.discoveredUdp])) {
      if (this.stopped) return;
      if (this.busy(link)) {
        this.state.seen(link);
        continue;
      }
      const { device } = await this.probe(link);
      if (device) this.state.present(device);
      else this.state.missing(link);
      // Once gone from the list (or never on it: it answered the multicast request but not /info),
      // a discovered device is asked again only when it answers the multicast request again.
      if (!this.state.has(link)) this.discoveredUdp.delete(link);
    }
  }

  private async startBle(getCentral: () => Promise<BleCentral>): Promise<void> {
    try {
      const central = await getCentral();
      if (this.stopped) return;
      this.stopBleScan = await central.scan((peripheral) => this.bleAdvertised(peripheral));
      const lostAfterMs = this.options.bleLostAfterMs ?? 10_000;
      this.timers.push(
        setInterval(
          () => {
            const now = performance.now();
            for (const link of this.state.links('ble')) {
              const lastSeen = this.bleLastSeen.get(link) ?? 0;
              if (now - lastSeen >= lostAfterMs && !this.busy(link)) this.state.remove(link);
            }
          },
          Math.min(lostAfterMs, 1000),
        ),
      );
    } catch (error) {
      this.warnOnce()(`BLE discovery is off: ${(error as Error).message}`);
    }
  }

  private bleAdvertised(peripheral: Peripheral): void {
    const link = bleLinkOf(peripheral);
    this.bleLastSeen.set(link, performance.now());
    if (this.state.has(link) || this.bleProbing.has(link) || this.busy(link) || this.stopped) return;
    this.bleProbing.add(link);
    void this.probe(link)
      .then(({ device }) => {
        if (device && !this.stopped) this.state.present(device);
      })
      .finally(() => this.bleProbing.delete(link));
  }

  private readonly warned = new Set<string>();
  private warnOnce(): (message: string) => void {
    return (message) => {
      if (this.warned.has(message)) return;
      this.warned.add(message);
      this.options.onWarning?.(message);
    };
  }
}
