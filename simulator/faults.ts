import { createRandom, deriveSeed, type Random } from './random';
import { parseParameterDrift } from './device/parameters';

/** Faults a device injects; every probability applies per frame (serial, BLE) or datagram (UDP). */
export interface FaultOptions {
  /** Seed of every random decision, so a failing run can be replayed. Default 1. */
  seed?: number;
  /** Fraction of frames lost, in either direction. */
  drop?: number;
  /**
   * Fraction of frames damaged on the wire, in either direction: a byte is flipped so the CRC no
   * longer matches. On UDP the datagram is lost instead: the UDP checksum would drop it.
   */
  corrupt?: number;
  /** Pull the cable when the firmware upload reaches this byte offset of the image (once). */
  pullAt?: number;
  /** How long the cable stays out after `pullAt`; default 1000 ms. */
  replugAfterMs?: number;
  /** Stop processing for `ms` when the firmware upload reaches `atOffset` (once). */
  stall?: { ms: number; atOffset: number };
  /** Cut the power while the image is being applied (once): the device boots its old image. */
  powerCycleDuringApply?: boolean;
  /**
   * `KEY` or `KEY=VALUE` (device/parameters.ts): the device stores this parameter differently from
   * the file it applies, keeping the file's syncId. GET /params shows it; GET /info does not.
   */
  paramDrift?: string;
}

export type FrameFate = 'pass' | 'drop' | 'corrupt';

export interface FaultStats {
  dropped: number;
  corrupted: number;
  pulls: number;
  stalls: number;
  powerCycles: number;
}

/** What the firmware upload path must do when a block arrives. */
export interface UploadFaults {
  /** The cable is pulled before this block is stored. */
  pull: boolean;
  /** Hold all traffic this long before the block is processed. */
  stallMs: number;
}

/**
 * The fault plan of one device. One-shot faults fire once per device lifetime (process), so the
 * retry or resume that follows them can succeed.
 */
export class DeviceFaults {
  readonly stats: FaultStats = { dropped: 0, corrupted: 0, pulls: 0, stalls: 0, powerCycles: 0 };
  private readonly inbound: Random;
  private readonly outbound: Random;
  private readonly corruption: Random;
  private pulled = false;
  private stalled = false;
  private powerCut = false;

  constructor(
    readonly options: FaultOptions,
    serialNumber: string,
  ) {
    // A fleet file's drift is checked at start, as the command line's is: not at the first apply.
    // A cfg/… path (with '/') is a vendor device's, which checks it itself when it starts (simulator/vendor/drift.ts).
    if (options.paramDrift !== undefined && !options.paramDrift.includes('/')) parseParameterDrift(options.paramDrift);
    const seed = options.seed ?? 1;
    this.inbound = createRandom(deriveSeed(seed, `${serialNumber}/in`));
    this.outbound = createRandom(deriveSeed(seed, `${serialNumber}/out`));
    this.corruption = createRandom(deriveSeed(seed, `${serialNumber}/corrupt`));
  }

  get replugAfterMs(): number {
    return this.options.replugAfterMs ?? 1000;
  }

  frameFate(direction: 'in' | 'out'): FrameFate {
    const drop = this.options.drop ?? 0;
    const corrupt = this.options.corrupt ?? 0;
    if (drop <= 0 && corrupt <= 0) return 'pass';
    const roll = (direction === 'in' ? this.inbound : this.outbound)();
    if (roll < drop) {
      this.stats.dropped++;
      return 'drop';
    }
    if (roll < drop + corrupt) {
      this.stats.corrupted++;
      return 'corrupt';
    }
    return 'pass';
  }

  /** A random number for choosing which byte to flip and how. */
  corruptionRoll(): number {
    return this.corruption();
  }

  /** Called with the end offset of each firmware block before it is stored. */
  onFirmwareBlock(end: number): UploadFaults {
    const result: UploadFaults = { pull: false, stallMs: 0 };
    const { pullAt, stall } = this.options;
    if (pullAt !== undefined && !this.pulled && end > pullAt) {
      this.pulled = true;
      this.stats.pulls++;
      result.pull = true;
    }
    if (stall !== undefined && !this.stalled && end > stall.atOffset) {
      this.stalled = true;
      this.stats.stalls++;
      result.stallMs = stall.ms;
    }
    return result;
  }

  /** True once: the apply about to run is interrupted by a power cut. */
  takePowerCycleDuringApply(): boolean {
    if (!this.options.powerCycleDuringApply || this.powerCut) return false;
    this.powerCut = true;
    this.stats.powerCycles++;
    return true;
  }
}

/** `--stall 5000@100000`: stall 5000 ms at byte offset 100000. */
export function parseStall(text: string): { ms: number; atOffset: number } {
  const match = /^(\d+)@(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`--stall wants MS@OFFSET, e.g. 5000@100000, not "${text}"`);
  return { ms: Number(match[1]), atOffset: Number(match[2]) };
}

export function parseFraction(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`${flag} wants a fraction between 0 and 1, not "${text}"`);
  return value;
}
