import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeviceType } from '../../domain/device-types';
import type { RunningValueType, VendorFamily } from '../../domain/vendor/running-values';
import { writeFileAtomic } from '../../platform/durable-file';

/** A file in the FRC's fs: what the device computed over it, and what the host declared before sending it. */
export interface StoredFile {
  length: number;
  crc32: number;
  /** From the fs/metadata POST before the upload; null when none was declared. */
  declared: { length: number; crc32: number } | null;
}

/** The configuration file a vendor device applied last. */
export interface AppliedVendorConfig {
  /** config-checksum of the secure-config map. */
  checksum: string;
  via: 'cfg/all' | 'secureConfig.cbor';
  at: string;
  /** The syncId of our content inside config-data, when the service made the file. */
  syncId: string | null;
  /** The running-values path the --fault-param-drift fault served differently, if any. */
  drifted: string | null;
}

/** What a simulated vendor device keeps in `vendor-device.json`; files of its fs beside it in fs/. */
export interface VendorState {
  format: 'provisioner-simulator-vendor-state/1';
  protocol: 'vendor';
  family: VendorFamily;
  serialNumber: string;
  deviceType: DeviceType;
  model: string;
  firmwareVersion: string;
  bootId: number;
  /** Every settings resource's value, as GET answers it. */
  settings: Record<string, RunningValueType>;
  /** FRC fs, by file name. */
  files: Record<string, StoredFile>;
  /** Component files installed at a reset (FRC), name → CRC-32 hex, and how many installs in all. */
  installed: Record<string, string>;
  installs: number;
  config: AppliedVendorConfig | null;
}

export const VENDOR_STATE_FILE = 'vendor-device.json';

/** Non-volatile memory of a simulated vendor device; writes are atomic (platform/durable-file). */
export class VendorStateStore {
  private constructor(
    readonly dir: string,
    public current: VendorState,
  ) {}

  static async open(
    dir: string,
    initial: Omit<VendorState, 'format' | 'protocol' | 'bootId' | 'files' | 'installed' | 'installs' | 'config'>,
  ): Promise<VendorStateStore> {
    await mkdir(join(dir, 'fs'), { recursive: true });
    let current: VendorState;
    try {
      current = JSON.parse(await readFile(join(dir, VENDOR_STATE_FILE), 'utf8')) as VendorState;
      // Settings the simulator learned since the state was written start at their initial value.
      current.settings = { ...initial.settings, ...current.settings };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      current = {
        format: 'provisioner-simulator-vendor-state/1',
        protocol: 'vendor',
        ...initial,
        bootId: 0,
        files: {},
        installed: {},
        installs: 0,
        config: null,
      };
    }
    if (current.serialNumber !== initial.serialNumber || current.family !== initial.family) {
      throw new Error(
        `The state directory ${dir} belongs to ${current.family} ${current.serialNumber}, not ${initial.family} ${initial.serialNumber}. Use another --state-dir.`,
      );
    }
    const store = new VendorStateStore(dir, current);
    await store.save();
    return store;
  }

  async save(): Promise<void> {
    await writeFileAtomic(join(this.dir, VENDOR_STATE_FILE), `${JSON.stringify(this.current, null, 2)}\n`);
  }

  /**
   * Changes the state as flash does: the changed copy is written first, and only then is it what
   * the device runs and reports. A device asked during the write answers what it had, so nothing
   * it reports can be lost to a power cut right after (a version it said, then boots without).
   */
  async commit(change: (next: VendorState) => void): Promise<void> {
    const next = structuredClone(this.current);
    change(next);
    await writeFileAtomic(join(this.dir, VENDOR_STATE_FILE), `${JSON.stringify(next, null, 2)}\n`);
    this.current = next;
  }

  /** A power cut: RAM is lost, what was saved is what the device has. */
  async reload(): Promise<void> {
    this.current = JSON.parse(await readFile(join(this.dir, VENDOR_STATE_FILE), 'utf8')) as VendorState;
  }

  filePath(name: string): string {
    return join(this.dir, 'fs', encodeURIComponent(name));
  }

  async writeFile(name: string, data: Uint8Array, entry: StoredFile): Promise<void> {
    await writeFileAtomic(this.filePath(name), data);
    this.current.files[name] = entry;
    await this.save();
  }

  async readFile(name: string): Promise<Uint8Array | undefined> {
    if (this.current.files[name] === undefined) return undefined;
    return new Uint8Array(await readFile(this.filePath(name)));
  }

  async removeFile(name: string): Promise<void> {
    delete this.current.files[name];
    await this.save();
    await rm(this.filePath(name), { force: true });
  }
}
