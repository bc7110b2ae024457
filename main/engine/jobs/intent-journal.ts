import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  nodeFileSystem,
  readJsonFiles,
  removeDurable,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';
import { processIsAlive } from '../../../platform/durable-lock';
import { QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';

/**
 * A job writes its intent here, durably, before it touches a device, and removes it only after
 * the job's final confirmation is in the outbox. If the process dies in between (crash, power cut,
 * the laptop lid closed on a CLI), the intent is still there afterwards and waits for the device:
 * the next contact with it (reconcile.ts) confirms the job as a success when the device runs what
 * the job installed, and as a failure when it does not. Only an intent whose device is not seen
 * for a long time is confirmed as a failure without it (confirm.ts, expireInterruptedJobs).
 */

export const jobIntentSchema = z.object({
  format: z.literal('provisioner-job-intent/1'),
  jobId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
  kind: z.enum(['firmware', 'configuration']),
  serviceUrl: z.string().min(1),
  orgId: z.string().min(1),
  serialNumber: z.string().min(1),
  /** Firmware: the version being installed. */
  firmwareVersion: z.string().nullable(),
  /** Configuration: the syncId being applied. */
  syncId: z.string().nullable(),
  /** What the device held before the job, to tell "still the old one" in the failure text (absent in older intents). */
  previousFirmwareVersion: z.string().nullable().default(null),
  previousSyncId: z.string().nullable().default(null),
  /** The last phase reached, for the failure text. */
  phase: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  pid: z.number().int(),
  hostname: z.string(),
});
export type JobIntent = z.infer<typeof jobIntentSchema>;

export type NewJobIntent = Pick<
  JobIntent,
  'jobId' | 'kind' | 'serviceUrl' | 'orgId' | 'serialNumber' | 'firmwareVersion' | 'syncId' | 'phase'
> &
  Partial<Pick<JobIntent, 'previousFirmwareVersion' | 'previousSyncId'>>;

export interface IntentJournalOptions {
  dir: string;
  fs?: FileSystem;
  now?: () => number;
  pid?: number;
  hostname?: string;
  isAlive?: (pid: number) => boolean;
  /** A damaged intent file was moved to `quarantine/` (bytes intact, never deleted). */
  onQuarantine?: (file: QuarantinedFile) => void;
}

export class IntentJournal {
  readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private readonly pid: number;
  private readonly hostname: string;
  private readonly isAlive: (pid: number) => boolean;
  private readonly onQuarantine: ((file: QuarantinedFile) => void) | undefined;
  private ready: Promise<unknown> | undefined;

  constructor(options: IntentJournalOptions) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.pid = options.pid ?? process.pid;
    this.hostname = options.hostname ?? osHostname();
    this.isAlive = options.isAlive ?? processIsAlive;
    this.onQuarantine = options.onQuarantine;
  }

  private path(jobId: string): string {
    return join(this.dir, `${jobId}.json`);
  }

  /** Durable when it resolves: only then may the device be touched. */
  async record(intent: NewJobIntent): Promise<JobIntent> {
    this.ready ??= this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.ready;
    const at = new Date(this.now()).toISOString();
    const full = jobIntentSchema.parse({
      format: 'provisioner-job-intent/1',
      ...intent,
      startedAt: at,
      updatedAt: at,
      pid: this.pid,
      hostname: this.hostname,
    });
    await writeFileDurable(this.fs, this.path(full.jobId), JSON.stringify(full, null, 2) + '\n');
    return full;
  }

  /** The phase reached, so an interruption can say where it happened. */
  async advance(intent: JobIntent, phase: string): Promise<JobIntent> {
    const next: JobIntent = { ...intent, phase, updatedAt: new Date(this.now()).toISOString() };
    await writeFileDurable(this.fs, this.path(intent.jobId), JSON.stringify(next, null, 2) + '\n');
    return next;
  }

  async clear(jobId: string): Promise<void> {
    await removeDurable(this.fs, this.path(jobId));
  }

  /** Intents whose process is gone: jobs that were interrupted. Those of live processes are running. */
  async orphans(): Promise<JobIntent[]> {
    const found: JobIntent[] = [];
    for await (const { path, raw } of readJsonFiles(this.fs, this.dir)) {
      const intent = await this.readIntent(path, raw);
      if (!intent) continue;
      const ours = intent.hostname === this.hostname;
      // Another host's intent (a shared home directory) cannot be judged from here: leave it.
      if (!ours) continue;
      if (intent.pid === this.pid || this.isAlive(intent.pid)) continue;
      found.push(intent);
    }
    return found.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  /**
   * The intent a file holds. Writes are atomic, so a file that does not read was damaged on disk
   * (or written by hand): it is set aside, never deleted. One in another intent format (a newer
   * version of the app) is left for that version.
   */
  private async readIntent(path: string, raw: Buffer): Promise<JobIntent | undefined> {
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
      return jobIntentSchema.parse(json);
    } catch {
      const format = typeof json === 'object' && json !== null && 'format' in json ? json.format : undefined;
      if (
        typeof format === 'string' &&
        format.startsWith('provisioner-job-intent/') &&
        format !== 'provisioner-job-intent/1'
      )
        return undefined;
      const file = await quarantineFile(this.fs, path, {
        quarantineDir: join(this.dir, QUARANTINE_DIR),
        reason: 'a job intent file is damaged',
        now: this.now(),
      });
      if (file) this.onQuarantine?.(file);
      return undefined;
    }
  }
}
