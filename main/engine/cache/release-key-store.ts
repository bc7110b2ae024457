import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import {
  firmwareReleaseKeySchema,
  releaseKeyFromPem,
  type FirmwareReleaseKeyRecord,
  type ReleaseKey,
} from '../../../domain/files/firmware-release-key';
import { nodeFileSystem, readFileIfExists, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { NetworkError, ServiceError, type CallOptions, type ServiceClient } from '../../cloud';

/**
 * The firmware release keys each service trusts (GET /v1/firmware-release-keys), kept beside the
 * firmware cache so that a bundle installed without the service is still checked before a device
 * is touched. One file per service, `release-keys/<hash of its URL>.json`; refreshed from the
 * service at most once a minute per process, and replaced whenever the service answers.
 */

export type ReleaseKeySource = Pick<ServiceClient, 'baseUrl' | 'firmwareReleaseKeys'>;

const storedSchema = z.object({
  serviceUrl: z.string(),
  fetchedAt: z.string(),
  keys: z.array(firmwareReleaseKeySchema),
});
type StoredReleaseKeys = z.infer<typeof storedSchema>;

export interface KnownReleaseKeys {
  keys: ReleaseKey[];
  fetchedAt: string;
  /** 'service': just asked; 'stored': the service was unavailable, the copy kept from before is used. */
  origin: 'service' | 'stored';
}

/** How long an answer of the service stands for its keys within one process. */
const FRESH_MS = 60_000;

export class ReleaseKeyStore {
  private readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private readonly recent = new Map<string, { at: number; known: Promise<KnownReleaseKeys | undefined> }>();

  constructor(options: { dir: string; fs?: FileSystem; now?: () => number }) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
  }

  /** The service's keys, or the ones kept from it when it cannot be reached; undefined when neither. */
  get(source: ReleaseKeySource, call: CallOptions = {}): Promise<KnownReleaseKeys | undefined> {
    const held = this.recent.get(source.baseUrl);
    if (held && this.now() - held.at < FRESH_MS) return held.known;
    const known = this.fetch(source, call).catch((error: unknown) => {
      this.recent.delete(source.baseUrl);
      throw error;
    });
    this.recent.set(source.baseUrl, { at: this.now(), known });
    return known;
  }

  async stored(serviceUrl: string): Promise<KnownReleaseKeys | undefined> {
    const raw = await readFileIfExists(this.fs, this.pathFor(serviceUrl));
    if (!raw) return undefined;
    let parsed: StoredReleaseKeys;
    try {
      parsed = storedSchema.parse(JSON.parse(raw.toString('utf8')));
    } catch {
      return undefined; // a damaged copy is as good as none: the next answer of the service replaces it
    }
    return {
      keys: parsed.keys.map((k) => releaseKeyFromPem(k.publicKeyPem, k.name)),
      fetchedAt: parsed.fetchedAt,
      origin: 'stored',
    };
  }

  /**
   * Keep keys that came another way than from the service itself (a signed work package carried to
   * a plant without network): stored as if the service had answered with them.
   */
  async keep(serviceUrl: string, records: readonly FirmwareReleaseKeyRecord[], fetchedAt: string): Promise<void> {
    const stored: StoredReleaseKeys = { serviceUrl, fetchedAt, keys: [...records] };
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, this.pathFor(serviceUrl), `${JSON.stringify(stored, null, 2)}\n`);
    this.recent.delete(serviceUrl);
  }

  private pathFor(serviceUrl: string): string {
    return join(this.dir, `${createHash('sha256').update(serviceUrl).digest('hex').slice(0, 16)}.json`);
  }

  private async fetch(source: ReleaseKeySource, call: CallOptions): Promise<KnownReleaseKeys | undefined> {
    let records;
    try {
      records = await source.firmwareReleaseKeys(call);
    } catch (error) {
      const unavailable = error instanceof NetworkError || (error instanceof ServiceError && error.retryable);
      if (!unavailable) throw error;
      return this.stored(source.baseUrl);
    }
    const fetchedAt = new Date(this.now()).toISOString();
    const stored: StoredReleaseKeys = { serviceUrl: source.baseUrl, fetchedAt, keys: records };
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, this.pathFor(source.baseUrl), `${JSON.stringify(stored, null, 2)}\n`);
    return { keys: records.map((k) => releaseKeyFromPem(k.publicKeyPem, k.name)), fetchedAt, origin: 'service' };
  }
}
