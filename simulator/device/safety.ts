import { watch, type FSWatcher } from 'node:fs';
import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { decodeConfigFile } from '../../domain/files/config-file';
import type { SafetyStatus } from '../../protocol/safety';

/**
 * A simulated device's safety function: its E-stop, and its outputs that trip when another device
 * of the same configuration reports a press. Real devices carry the trip on CAN, Ethernet or BLE;
 * simulated ones, in separate processes, share a "safety bus": one append-only file per
 * configuration in a directory they all know (`<simulator dir>/safety-bus` by default). A press
 * appends a line; every other device of that configuration watching the file trips.
 */

/** How often the bus is read when the file system's change events are late or missing. */
const POLL_MS = 100;

export interface SafetyFunctionOptions {
  serialNumber: string;
  busDir: string;
  /** The applied configuration file (config.cbor), which says the configuration it belongs to. */
  configPath: string;
  /** A status change, for the observers of /safety. */
  onChange: (status: SafetyStatus) => void;
  /** Press the E-stop this long after a host starts observing /safety (the function test's simulated technician). */
  pressAfterObserveMs?: number;
}

interface BusEvent {
  id: string;
  source: string;
  at: string;
}

export class SafetyFunction {
  private presses = 0;
  private lastPressAt: string | null = null;
  private trips = 0;
  private lastTripAt: string | null = null;
  private trippedBy: string | null = null;
  private configurationId: string | null = null;
  /** Bytes of the configuration's bus file already read: what was there before counts as history. */
  private offset = 0;
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private pressTimer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: SafetyFunctionOptions) {}

  async start(): Promise<void> {
    await mkdir(this.options.busDir, { recursive: true });
    await this.reloadConfiguration();
    try {
      this.watcher = watch(this.options.busDir, () => this.scan());
      this.watcher.on('error', () => undefined);
    } catch {
      // Polling alone then.
    }
    this.poll = setInterval(() => this.scan(), POLL_MS);
    this.poll.unref();
  }

  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    clearInterval(this.poll);
    clearTimeout(this.pressTimer);
  }

  status(): SafetyStatus {
    return {
      presses: this.presses,
      lastPressAt: this.lastPressAt,
      trips: this.trips,
      lastTripAt: this.lastTripAt,
      trippedBy: this.trippedBy,
      configurationId: this.configurationId,
    };
  }

  /** A boot: counters start again, and the configuration may be another one now. */
  async rebooted(): Promise<void> {
    this.presses = 0;
    this.trips = 0;
    this.lastPressAt = null;
    this.lastTripAt = null;
    this.trippedBy = null;
    clearTimeout(this.pressTimer);
    await this.reloadConfiguration();
  }

  /** Someone pressed this device's E-stop: tell the observers, and the other devices of the configuration. */
  async press(): Promise<void> {
    this.presses += 1;
    this.lastPressAt = new Date().toISOString();
    this.options.onChange(this.status());
    if (this.configurationId === null) return;
    const event: BusEvent = { id: randomUUID(), source: this.options.serialNumber, at: this.lastPressAt };
    await appendFile(this.busFile(this.configurationId), `${JSON.stringify(event)}\n`);
  }

  /** A host started observing /safety: with --press-estop-after-ms, the simulated technician presses. */
  observed(): void {
    const after = this.options.pressAfterObserveMs;
    if (after === undefined || this.stopped) return;
    clearTimeout(this.pressTimer);
    this.pressTimer = setTimeout(() => void this.press().catch(() => undefined), after);
  }

  private busFile(configurationId: string): string {
    return join(this.options.busDir, `${configurationId.replace(/[^A-Za-z0-9-]/g, '_')}.jsonl`);
  }

  private async reloadConfiguration(): Promise<void> {
    let id: string | null = null;
    try {
      id = decodeConfigFile(new Uint8Array(await readFile(this.options.configPath))).content.configurationId;
    } catch {
      id = null;
    }
    this.configurationId = id;
    this.offset = id === null ? 0 : await sizeOf(this.busFile(id));
  }

  private scan(): void {
    if (this.stopped || this.configurationId === null) return;
    this.scanning = this.scanning.then(() => this.readNew()).catch(() => undefined);
  }

  private async readNew(): Promise<void> {
    const id = this.configurationId;
    if (id === null) return;
    let handle;
    try {
      handle = await open(this.busFile(id), 'r');
    } catch {
      return;
    }
    try {
      const { size } = await handle.stat();
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      await handle.read(buffer, 0, buffer.length, this.offset);
      const text = buffer.toString('utf8');
      // Only whole lines: a press being written now is read at the next scan.
      const end = text.lastIndexOf('\n');
      if (end < 0) return;
      this.offset += Buffer.byteLength(text.slice(0, end + 1));
      for (const line of text.slice(0, end).split('\n')) {
        const event = parseEvent(line);
        if (!event || event.source === this.options.serialNumber) continue;
        this.trips += 1;
        this.lastTripAt = new Date().toISOString();
        this.trippedBy = event.source;
        this.options.onChange(this.status());
      }
    } finally {
      await handle.close();
    }
  }
}

function parseEvent(line: string): BusEvent | undefined {
  try {
    const value = JSON.parse(line) as Partial<BusEvent>;
    return typeof value.source === 'string' && typeof value.id === 'string' && typeof value.at === 'string'
      ? (value as BusEvent)
      : undefined;
  } catch {
    return undefined;
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    const handle = await open(path, 'r');
    try {
      return (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch {
    return 0;
  }
}

/** The devices' safety functions, by the device they belong to (resources reach theirs through the device). */
const byDevice = new WeakMap<object, SafetyFunction>();

export function attachSafety(device: object, safety: SafetyFunction): void {
  byDevice.set(device, safety);
}

export function safetyOf(device: object): SafetyFunction | undefined {
  return byDevice.get(device);
}
