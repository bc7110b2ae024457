import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FirmwareState } from '../../protocol/constants';
import { writeFileAtomic } from '../../platform/durable-file';
import { flushStagedImage } from './staged-image';
import type { ParameterValues } from '../../domain/running-parameters';

/** The firmware upload a device remembers across reboots, so that a host can resume it. */
export interface PersistedUpload {
  size: number;
  /** Hex SHA-256 the host announced. */
  sha256: string;
  version: string;
  deviceType: string;
  /** Hex of the signed firmware manifest the announce carried: checked again at apply, and applied then (counter, retirements). */
  signedManifest: string;
  /** Bytes stored contiguously from offset 0: where a resumed upload starts. */
  ackedOffset: number;
  /** receiving → received (every byte in, hash verified) or failed (error says why). */
  state: Extract<FirmwareState, 'receiving' | 'received' | 'failed'>;
  error: string | null;
  /** A coded upload (docs/device-protocol.md 3.3, "Content codings"): `ackedOffset` then counts coded bytes. */
  coding?: PersistedCoding;
}

/** How a coded upload travels; its decoder's state lives in RAM only, so a power cut restarts it. */
export interface PersistedCoding {
  name: 'deflate' | 'delta';
  /** Coded bytes in all. */
  size: number;
  windowBits: number;
  /** delta: hex SHA-256 of the base image. */
  baseSha256: string | null;
  /** Decoded image bytes stored so far. */
  decoded: number;
}

export interface PersistedConfig {
  syncId: string;
  appliedAt: string;
  blank: boolean;
  /** The applied file's sequence: an older file is refused. 0 for a file from before sequences. */
  sequence: number;
}

/**
 * The organization key the device trusts: that of the first file it accepted. Kept when a blank
 * file resets the configuration; only a factory reset (a new state directory) forgets it.
 */
export interface PersistedClaim {
  orgId: string;
  keyId: string;
  claimedAt: string;
}

/** What `SimulatedDevice.state()` returns and `device.json` holds. */
export interface DeviceState {
  format: 'provisioner-simulator-state/1';
  serialNumber: string;
  deviceType: string;
  model: string;
  firmwareVersion: string;
  /** Bumped on every boot, so a host can tell that a reboot happened. */
  bootId: number;
  /** Anti-rollback floor: the highest security counter of an image applied; images below it are refused. */
  securityCounter: number;
  /** Release keys that applied manifests retired: refused from then on, although still provisioned. */
  retiredReleaseKeyIds: string[];
  config: PersistedConfig | null;
  claim: PersistedClaim | null;
  upload: PersistedUpload | null;
  /**
   * The parameters the firmware decoded from the applied file and runs (device/parameters.ts); what
   * GET /params reports. Absent on a device from before the store: decoded from config.cbor once.
   */
  parameters?: ParameterValues;
}

export const STATE_FILE = 'device.json';

/**
 * device.json as written, brought up to date: a device from before signed firmware has floor 0 and
 * no retired keys, and its unsigned staged upload is dropped (it could never be applied now).
 */
function readState(text: string): DeviceState {
  const stored = JSON.parse(text) as Partial<DeviceState> &
    Omit<DeviceState, 'securityCounter' | 'retiredReleaseKeyIds' | 'claim'>;
  const upload = stored.upload && typeof stored.upload.signedManifest === 'string' ? stored.upload : null;
  // A device from before claims and sequences is unclaimed, its configuration at sequence 0.
  const config = stored.config && { ...stored.config, sequence: stored.config.sequence ?? 0 };
  return {
    ...stored,
    securityCounter: stored.securityCounter ?? 0,
    retiredReleaseKeyIds: stored.retiredReleaseKeyIds ?? [],
    config,
    claim: stored.claim ?? null,
    upload,
  };
}
/**
 * How often the upload's acknowledged offset alone is persisted, at most: about once per Q-Block1
 * payload set at 1 MB/s. A power cut loses at most this much progress, which the host sends again
 * on resume; it can never lose a state change (announce, received, failed, applied), which is
 * written at once.
 */
export const PROGRESS_SAVE_INTERVAL_MS = 100;

/** The state without the upload's progress: equal shapes differ in progress only. */
function shapeOf(state: DeviceState): string {
  return JSON.stringify(state.upload === null ? state : { ...state, upload: { ...state.upload, ackedOffset: 0 } });
}

export const STAGED_IMAGE_FILE = 'staged.bin';
export const CONFIG_FILE = 'config.cbor';

/**
 * The device's non-volatile memory: a directory with device.json (identity, versions, upload
 * progress, the organization it is claimed by), staged.bin (the image being received) and
 * config.cbor (the applied configuration).
 * The in-memory copy is what the running device uses; `save()` persists it atomically. Saves are
 * coalesced: many blocks acknowledged in a burst cost one write, yet each caller resumes only once
 * a write that includes its change is on disk. A change of upload progress alone waits for the
 * next write at most PROGRESS_SAVE_INTERVAL_MS.
 */
export class StateStore {
  private requested = 0;
  private completed = 0;
  private running = false;
  private waiters: { generation: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** When the last write started (performance.now()) and what it held besides upload progress. */
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private lastWrittenShape: string | undefined;
  /** Ends the wait of a write held back as progress only, when something else changed meanwhile. */
  private wake: (() => void) | undefined;
  /** The next write goes at once (a power cut writes what is pending, as it always did). */
  private forceNext = false;

  private constructor(
    readonly dir: string,
    public current: DeviceState,
  ) {}

  static async open(
    dir: string,
    initial: Omit<
      DeviceState,
      'format' | 'bootId' | 'config' | 'claim' | 'upload' | 'securityCounter' | 'retiredReleaseKeyIds'
    >,
  ): Promise<StateStore> {
    await mkdir(dir, { recursive: true });
    let current: DeviceState;
    try {
      current = readState(await readFile(join(dir, STATE_FILE), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      current = {
        format: 'provisioner-simulator-state/1',
        ...initial,
        bootId: 0,
        securityCounter: 0,
        retiredReleaseKeyIds: [],
        config: null,
        claim: null,
        upload: null,
      };
    }
    if (current.serialNumber !== initial.serialNumber || current.deviceType !== initial.deviceType) {
      throw new Error(
        `The state directory ${dir} belongs to ${current.deviceType} ${current.serialNumber}, not ${initial.deviceType} ${initial.serialNumber}. Use another --state-dir.`,
      );
    }
    const store = new StateStore(dir, current);
    await store.save();
    return store;
  }

  get stagedImagePath(): string {
    return join(this.dir, STAGED_IMAGE_FILE);
  }

  get configPath(): string {
    return join(this.dir, CONFIG_FILE);
  }

  /** A deep copy, so callers cannot change the device behind its back. */
  snapshot(): DeviceState {
    return structuredClone(this.current);
  }

  /** Re-reads what survived on disk: what a device knows after its power comes back. */
  async reload(): Promise<void> {
    await this.flushed();
    this.current = readState(await readFile(join(this.dir, STATE_FILE), 'utf8'));
  }

  save(): Promise<void> {
    const generation = ++this.requested;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ generation, resolve, reject }));
    if (!this.running) void this.run();
    else if (this.wake !== undefined && shapeOf(this.current) !== this.lastWrittenShape) this.wake();
    return done;
  }

  private async flushed(): Promise<void> {
    if (this.completed < this.requested) {
      this.forceNext = true;
      this.wake?.();
      await this.save();
    }
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.completed < this.requested) {
      // Progress alone is written at most every PROGRESS_SAVE_INTERVAL_MS: a block per write would
      // cost a durable file replacement per block. Every other change is written at once.
      const holdMs = this.lastWriteAt + PROGRESS_SAVE_INTERVAL_MS - performance.now();
      if (!this.forceNext && holdMs > 0 && shapeOf(this.current) === this.lastWrittenShape) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, holdMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
        continue;
      }
      this.forceNext = false;
      const generation = this.requested;
      try {
        this.lastWriteAt = performance.now();
        // The image bytes first: a saved ackedOffset must never cover bytes still in RAM. The state
        // is read before the flush: blocks that arrive while it runs advance ackedOffset over bytes
        // it does not write, and a snapshot taken after it would claim them (a kill then left
        // device.json ahead of staged.bin).
        const shape = shapeOf(this.current);
        const text = `${JSON.stringify(this.current, null, 2)}\n`;
        await flushStagedImage(this.stagedImagePath);
        this.lastWrittenShape = shape;
        await writeFileAtomic(join(this.dir, STATE_FILE), text);
        this.completed = generation;
        this.settle(
          (w) => w.generation <= generation,
          (w) => w.resolve(),
        );
      } catch (error) {
        this.completed = generation;
        this.settle(
          (w) => w.generation <= generation,
          (w) => w.reject(error),
        );
      }
    }
    this.running = false;
  }

  private settle(
    match: (w: StateStore['waiters'][number]) => boolean,
    action: (w: StateStore['waiters'][number]) => void,
  ): void {
    const due = this.waiters.filter(match);
    this.waiters = this.waiters.filter((w) => !match(w));
    due.forEach(action);
  }
}
