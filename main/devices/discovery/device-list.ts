import { sameListing, type DiscoveredDevice } from './discovered-device';

export type DeviceListEvent =
  | { type: 'added'; device: DiscoveredDevice }
  | { type: 'removed'; device: DiscoveredDevice }
  | { type: 'changed'; device: DiscoveredDevice; previous: DiscoveredDevice }
  /**
   * Its port went away and came back within the grace period: unplugged and plugged in again
   * quickly, or a reboot. Not a device that merely failed to answer a probe once.
   */
  | { type: 'returned'; device: DiscoveredDevice; previous: DiscoveredDevice };

interface Entry {
  device: DiscoveredDevice;
  /** performance.now() when the link was last missing from its source, if it is missing now. */
  missingSince: number | undefined;
  /** Its port itself went away (not only a probe that went unanswered) while it was missing. */
  portGone: boolean;
}

/**
 * The devices present right now, keyed by link, and the events a UI needs to follow them. A
 * device whose link vanishes is removed only after `graceMs`, so that a reboot (the port goes and
 * comes back) shows as 'returned' (with its new firmware version, new syncId) rather than removed
 * and added: the device itself is the same, and a failed device's owner may have plugged it in again.
 */
export class DeviceListState {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(event: DeviceListEvent) => void>();

  constructor(
    private readonly graceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  on(listener: (event: DeviceListEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  devices(): DiscoveredDevice[] {
    return [...this.entries.values()]
      .map((e) => e.device)
      .sort((a, b) => a.serialNumber.localeCompare(b.serialNumber) || a.link.localeCompare(b.link));
  }

  has(link: string): boolean {
    return this.entries.has(link);
  }

  /** Its source stopped listing it, and the grace period is running. */
  isMissing(link: string): boolean {
    return this.entries.get(link)?.missingSince !== undefined;
  }

  get(link: string): DiscoveredDevice | undefined {
    return this.entries.get(link)?.device;
  }

  /** The device answered on `link`. */
  present(device: DiscoveredDevice): void {
    const entry = this.entries.get(device.link);
    if (!entry) {
      this.entries.set(device.link, { device, missingSince: undefined, portGone: false });
      this.emit({ type: 'added', device });
      return;
    }
    const portCameBack = entry.missingSince !== undefined && entry.portGone;
    entry.missingSince = undefined;
    entry.portGone = false;
    if (entry.device.serialNumber !== device.serialNumber) {
      // Another device on the same port: the first one went away.
      this.entries.set(device.link, { device, missingSince: undefined, portGone: false });
      this.emit({ type: 'removed', device: entry.device });
      this.emit({ type: 'added', device });
    } else if (portCameBack) {
      const previous = entry.device;
      entry.device = device;
      this.emit({ type: 'returned', device, previous });
    } else if (!sameListing(entry.device, device)) {
      const previous = entry.device;
      entry.device = device;
      this.emit({ type: 'changed', device, previous });
    }
  }

  /** The link is still there (listed, or in use by a job) although it was not asked. */
  seen(link: string): void {
    const entry = this.entries.get(link);
    if (entry) {
      entry.missingSince = undefined;
      entry.portGone = false;
    }
  }

  /**
   * The link's source no longer lists it (`portGone`: its port is gone) or it stopped answering:
   * removed after the grace period.
   */
  missing(link: string, portGone = false): void {
    const entry = this.entries.get(link);
    if (!entry) return;
    const now = this.now();
    entry.missingSince ??= now;
    if (portGone) entry.portGone = true;
    if (now - entry.missingSince >= this.graceMs) this.remove(link);
  }

  remove(link: string): void {
    const entry = this.entries.get(link);
    if (!entry) return;
    this.entries.delete(link);
    this.emit({ type: 'removed', device: entry.device });
  }

  /** Links of one kind, for a source to compare with what it lists. */
  links(kind: DiscoveredDevice['linkKind']): string[] {
    return [...this.entries.values()].filter((e) => e.device.linkKind === kind).map((e) => e.device.link);
  }

  private emit(event: DeviceListEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
