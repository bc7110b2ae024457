import { join } from 'node:path';
import { z } from 'zod';
import { NetworkError, type CallOptions, type FetchedFile } from '../../cloud';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { nodeFileSystem, readFileIfExists, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { JobFailure } from './failure';

/**
 * Configuration files kept per device, so a device can be configured where the service cannot be
 * reached (the plant floor). Each download replaces the device's copy; `cache prefetch` fills it
 * for every device that is in a configuration. A stored file is used only when the service is
 * unreachable, and the job says so: the service may hold a newer file by then.
 */

const metaSchema = z.object({
  serialNumber: z.string(),
  syncId: z.string(),
  size: z.number().int(),
  fetchedAt: z.string(),
});
export type StoredConfigFileMeta = z.infer<typeof metaSchema>;

export interface ConfigFileSource {
  fetchConfigurationFile(serialNumber: string, call?: CallOptions): Promise<FetchedFile>;
}

export interface ResolvedConfigFile {
  bytes: Uint8Array;
  syncId: string;
  origin: 'download' | 'offline-cache';
  notice: string | undefined;
}

function safeName(serialNumber: string): string {
  return encodeURIComponent(serialNumber);
}

export class ConfigFileStore {
  private readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;

  constructor(options: { dir: string; fs?: FileSystem; now?: () => number }) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
  }

  private paths(serialNumber: string): { file: string; meta: string } {
    const name = safeName(serialNumber);
    return { file: join(this.dir, `${name}.cbor`), meta: join(this.dir, `${name}.json`) };
  }

  async put(serialNumber: string, bytes: Uint8Array, syncId: string): Promise<StoredConfigFileMeta> {
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const paths = this.paths(serialNumber);
    const meta: StoredConfigFileMeta = { serialNumber, syncId, size: bytes.length, fetchedAt: new Date(this.now()).toISOString() };
    // File first, then its description: a crash between leaves a file whose meta is older, and
    // get() trusts the syncId inside the file, not the meta.
    await writeFileDurable(this.fs, paths.file, bytes);
    await writeFileDurable(this.fs, paths.meta, JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  async get(serialNumber: string): Promise<{ bytes: Uint8Array; meta: StoredConfigFileMeta } | undefined> {
    const paths = this.paths(serialNumber);
    const [bytes, rawMeta] = await Promise.all([readFileIfExists(this.fs, paths.file), readFileIfExists(this.fs, paths.meta)]);
    if (!bytes || !rawMeta) return undefined;
    const meta = metaSchema.safeParse(JSON.parse(rawMeta.toString('utf8')));
    if (!meta.success) return undefined;
    try {
      const decoded = decodeConfigFile(bytes);
      if (decoded.serialNumber !== serialNumber) return undefined;
      return { bytes: new Uint8Array(bytes), meta: { ...meta.data, syncId: decoded.syncId } };
    } catch {
      return undefined; // damaged: as if absent; the next download replaces it
    }
  }

  async list(): Promise<StoredConfigFileMeta[]> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.dir);
    } catch {
      return [];
    }
    const metas: StoredConfigFileMeta[] = [];
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      const raw = await readFileIfExists(this.fs, join(this.dir, name));
      const parsed = raw ? metaSchema.safeParse(JSON.parse(raw.toString('utf8'))) : undefined;
      if (parsed?.success) metas.push(parsed.data);
    }
    return metas.sort((a, b) => a.serialNumber.localeCompare(b.serialNumber));
  }

  /** The device's file from the service (kept for offline use), or the kept one when the service is unreachable. */
  async resolve(source: ConfigFileSource, serialNumber: string, call: CallOptions = {}): Promise<ResolvedConfigFile> {
    try {
      const file = await source.fetchConfigurationFile(serialNumber, call);
      const decoded = decodeConfigFile(file.bytes);
      if (file.syncId !== undefined && file.syncId.toLowerCase() !== decoded.syncId.toLowerCase()) {
        throw new JobFailure(
          'CONFIG_SYNC_ID_MISMATCH',
          `the service sent a configuration file whose syncId ${decoded.syncId} differs from its X-Config-File-Sync-Id header ${file.syncId}; download it again`,
        );
      }
      await this.put(serialNumber, file.bytes, decoded.syncId);
      return { bytes: file.bytes, syncId: decoded.syncId, origin: 'download', notice: undefined };
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      const stored = await this.get(serialNumber);
      if (!stored) {
        throw new JobFailure(
          'NO_CONFIG_FILE_CACHED',
          `the service is unreachable and no configuration file of ${serialNumber} is kept on this computer; connect once (provisioner cache prefetch), then it works offline`,
        );
      }
      return {
        bytes: stored.bytes,
        syncId: stored.meta.syncId,
        origin: 'offline-cache',
        notice: `The service is unreachable; applying the configuration file kept since ${stored.meta.fetchedAt} (syncId ${stored.meta.syncId}).`,
      };
    }
  }
}
