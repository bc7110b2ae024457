import { dirname } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { nodeFileSystem, readFileIfExists, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import type { JobView } from '../../../domain/jobs';

/**
 * Every device's last jobs, each with its steps (start, duration, bytes, retries, resume offset),
 * its confirmation and the exact error: what a device row's timeline shows and the support
 * report carries. Kept in one JSON file, replaced durably after every finished job, so a
 * technician can still read what happened to a device after the app restarted.
 */

export const TIMELINE_FORMAT = 'provisioner-job-timeline/1';
/** Jobs kept per device: enough to read back a morning's tries, small enough to read at a glance. */
export const TIMELINE_JOBS_PER_DEVICE = 10;
/** Devices kept: the ones worked on most recently. */
export const TIMELINE_DEVICES = 500;

interface TimelineFile {
  format: typeof TIMELINE_FORMAT;
  /** Device (serial number, or the link when it never said who it is) → its jobs, newest first. */
  devices: Record<string, JobView[]>;
}

export class JobTimeline {
  private devices = new Map<string, JobView[]>();
  private loaded: Promise<void> | null = null;
  /** Writes run one after another, each with the newest content. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly options: { fs?: FileSystem; onError?: (message: string) => void } = {},
  ) {}

  private get fs(): FileSystem {
    return this.options.fs ?? nodeFileSystem;
  }

  /** Reads the file once; a damaged file starts an empty timeline (and is said so), it never stops the app. */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const bytes = await readFileIfExists(this.fs, this.path);
        if (!bytes) return;
        const file = JSON.parse(bytes.toString('utf8')) as Partial<TimelineFile>;
        if (file.format !== TIMELINE_FORMAT || typeof file.devices !== 'object' || file.devices === null)
          throw new Error(`not a ${TIMELINE_FORMAT} file`);
        for (const [device, jobs] of Object.entries(file.devices))
          if (Array.isArray(jobs)) this.devices.set(device, jobs.slice(0, TIMELINE_JOBS_PER_DEVICE));
      } catch (error) {
        this.options.onError?.(
          `The job timeline (${this.path}) could not be read and starts empty: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    })();
    return this.loaded;
  }

  /** A job finished: it goes first in its device's timeline, and the file is replaced. */
  async record(job: JobView): Promise<void> {
    await this.load();
    const device = deviceKey(job);
    const kept = (this.devices.get(device) ?? []).filter((j) => j.jobId !== job.jobId);
    this.devices.delete(device);
    this.devices.set(device, [job, ...kept].slice(0, TIMELINE_JOBS_PER_DEVICE));
    while (this.devices.size > TIMELINE_DEVICES) this.devices.delete(this.devices.keys().next().value!);
    const text = JSON.stringify({
      format: TIMELINE_FORMAT,
      devices: Object.fromEntries(this.devices),
    } satisfies TimelineFile);
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(this.path), { recursive: true });
        await writeFileDurable(this.fs, this.path, text);
      })
      .catch((error: unknown) =>
        this.options.onError?.(
          `The job timeline could not be saved: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    await this.writing;
  }

  /** A device's last jobs, newest first. */
  async of(device: string): Promise<JobView[]> {
    await this.load();
    return [...(this.devices.get(device) ?? [])];
  }

  /** Every device's last jobs, for the support report. */
  async all(): Promise<Record<string, JobView[]>> {
    await this.load();
    return Object.fromEntries(this.devices);
  }
}

export function deviceKey(job: Pick<JobView, 'serialNumber' | 'linkId'>): string {
  return job.serialNumber ?? job.linkId;
}
