import { createHash } from 'node:crypto';
import { REBOOT_AFTER_RESPONSE_MS, DEDUPLICATION_CACHE_SIZE } from '../../protocol/constants';
import type { RunningValueType, VendorFamily } from '../../domain/vendor/running-values';
import { CoapServer } from '../coap/server';
import type { ResourceResponse } from '../coap/types';
import type { DeviceFaults } from '../faults';
import type { DeviceLink } from '../links/link';
import type { ResolvedDeviceOptions } from '../options';
import { parseVendorDrift, type VendorDrift } from './drift';
import { familyOf } from './family';
import { FsSession } from './fs';
import { EpcFirmware } from './epc-firmware';
import { vendorRouter } from './router';
import { settingsOf, type Setting } from './settings';
import { VendorStateStore, type VendorState } from './state';
import { installStagedComponents } from './install';
import { SequentialBlockReceiver } from './block-receiver';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the vendor resources see of their device. */
export interface VendorContext {
  readonly family: VendorFamily;
  readonly options: ResolvedDeviceOptions;
  readonly store: VendorStateStore;
  readonly settings: ReadonlyMap<string, Setting>;
  readonly faults: DeviceFaults;
  readonly drift: VendorDrift | undefined;
  readonly fs: FsSession;
  readonly epcFirmware: EpcFirmware;
  /** The EPC's cfg/all body while its blocks arrive (RAM). */
  readonly cfgAll: SequentialBlockReceiver;
  /** Set by `systemReset b` until the next normal reset: settings and configuration are refused. */
  readonly inBootloader: boolean;
  /** Once the response is out: reboot, normally or into the bootloader. */
  resetAfterResponse(kind: 'normal' | 'bootloader'): Promise<void>;
  /** Sends a notification to the observers of `path`. */
  notify(path: string, response: ResourceResponse): void;
  pullCable(): void;
  stall(ms: number): void;
  /** Reboot now (the EPC after installing), as if reset normally. */
  reboot(how: { powerLoss: boolean }): Promise<void>;
}

/**
 * A simulated device of the vendor's (docs/vendor-devices.md, "The simulator"): an FRC-family
 * device (SRC Pro, NSC) on a pty with plain SLIP, or an EPC on UDP. Its life (power, reboots, the
 * cable) is as VirtualDevice's; its resources are the vendor's.
 */
export class VendorDevice implements VendorContext {
  readonly family: VendorFamily;
  readonly settings: ReadonlyMap<string, Setting>;
  readonly drift: VendorDrift | undefined;
  readonly fs: FsSession;
  readonly epcFirmware: EpcFirmware;
  readonly cfgAll: SequentialBlockReceiver;
  inBootloader = false;
  private readonly server: CoapServer;
  private running = false;
  private plugged = true;
  private stopped = false;
  private linkChain: Promise<void> = Promise.resolve();
  private replugTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly options: ResolvedDeviceOptions,
    readonly store: VendorStateStore,
    readonly link: DeviceLink,
    readonly faults: DeviceFaults,
    settings: ReadonlyMap<string, Setting>,
  ) {
    this.family = familyOf(options.deviceType);
    this.settings = settings;
    this.drift = faults.options.paramDrift === undefined ? undefined : parseVendorDrift(faults.options.paramDrift);
    this.fs = new FsSession({ maxBlockSize: options.maxBlockSize, maxSize: options.maxImageSize });
    this.epcFirmware = new EpcFirmware({ maxBlockSize: options.maxBlockSize, maxSize: options.maxImageSize });
    this.cfgAll = new SequentialBlockReceiver({
      maxBlockSize: options.maxBlockSize,
      maxSize: options.maxConfigSize,
      what: 'The configuration',
    });
    this.server = new CoapServer({
      send: (message, peer) => this.link.send(message, peer),
      handle: vendorRouter(this),
      blockSize: options.maxBlockSize,
      dedupCapacity: DEDUPLICATION_CACHE_SIZE,
    });
  }

  static async start(options: ResolvedDeviceOptions, link: DeviceLink, faults: DeviceFaults): Promise<VendorDevice> {
    const family = familyOf(options.deviceType);
    const table = settingsOf(family, identityOf(options.serialNumber));
    const initialSettings: Record<string, RunningValueType> = {};
    for (const [path, setting] of table) initialSettings[path] = setting.initial;
    const store = await VendorStateStore.open(options.stateDir, {
      family,
      serialNumber: options.serialNumber,
      deviceType: options.deviceType,
      model: options.model,
      firmwareVersion: options.firmwareVersion,
      settings: initialSettings,
    });
    const device = new VendorDevice(options, store, link, faults, table);
    try {
      await link.open((message, peer) => device.server.receive(message, peer));
      await device.boot();
    } catch (error) {
      await device.stop().catch(() => undefined);
      throw error;
    }
    return device;
  }

  state(): VendorState {
    return structuredClone(this.store.current);
  }

  notify(path: string, response: ResourceResponse): void {
    this.server.notify(path, response);
  }

  async resetAfterResponse(kind: 'normal' | 'bootloader'): Promise<void> {
    void this.inBackground(async () => {
      await this.link.drained();
      await sleep(REBOOT_AFTER_RESPONSE_MS);
      await this.reboot({ powerLoss: false, intoBootloader: kind === 'bootloader' });
    });
  }

  pullCable(): void {
    void this.unplug();
    this.replugTimer = setTimeout(() => void this.plug(), this.faults.replugAfterMs);
  }

  stall(ms: number): void {
    this.link.hold(ms);
  }

  async unplug(): Promise<void> {
    this.plugged = false;
    await this.syncLink();
  }

  async plug(): Promise<void> {
    this.plugged = true;
    await this.syncLink();
  }

  async powerCycle(): Promise<void> {
    await this.reboot({ powerLoss: true });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.replugTimer);
    this.epcFirmware.cancel();
    this.running = false;
    this.server.reset();
    await this.syncLink();
    await this.link.close();
    await this.store.save();
  }

  async reboot(how: { powerLoss: boolean; intoBootloader?: boolean }): Promise<void> {
    if (this.stopped) return;
    this.running = false;
    this.server.reset();
    this.fs.reset();
    this.cfgAll.reset();
    this.epcFirmware.cancel();
    await this.syncLink();
    if (how.powerLoss) await this.store.reload();
    await sleep(this.options.rebootMs);
    if (this.stopped) return;
    this.inBootloader = how.intoBootloader === true;
    await this.boot();
  }

  private async boot(): Promise<void> {
    // The FRC installs staged component files as it starts (not in the bootloader, which waits).
    if (this.family === 'FRC' && !this.inBootloader) {
      const outcome = await installStagedComponents(this.store, this.faults, this.options.applyMs);
      if (outcome === 'power-lost') {
        await this.reboot({ powerLoss: true });
        return;
      }
    }
    this.store.current.bootId++;
    await this.store.save();
    this.running = true;
    await this.syncLink();
  }

  private async inBackground(task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      if (!this.stopped)
        console.error(`simulator ${this.options.serialNumber}: ${(error as Error).stack ?? String(error)}`);
    }
  }

  private syncLink(): Promise<void> {
    const next = this.linkChain.then(async () => {
      const wanted = this.running && this.plugged && !this.stopped;
      if (wanted && !this.link.isUp) {
        if (this.link.kind !== 'udp') this.server.reset();
        await this.link.up();
      } else if (!wanted && this.link.isUp) await this.link.down();
    });
    this.linkChain = next.catch(() => undefined);
    return next;
  }
}

/** A device's MAC and CPU serial, derived from its serial number as a factory would assign them. */
export function identityOf(serialNumber: string): { serialNumber: string; mac: string; cpuSerial: string } {
  const digest = createHash('sha256').update(`vendor-device/${serialNumber}`).digest();
  const mac = ['02', ...[...digest.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
  return { serialNumber, mac, cpuSerial: digest.subarray(8, 16).toString('hex').toUpperCase() };
}
