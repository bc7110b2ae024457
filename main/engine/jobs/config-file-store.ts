import { join } from 'node:path';
import { z } from 'zod';
import { NetworkError, type CallOptions, type FetchedFile } from '../../cloud';
import { decodeConfigFile } from '../../../domain/files/config-file';
import {
  nodeFileSystem,
  readFileIfExists,
  readJsonFiles,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';
import { QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';
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

function readMeta(raw: Buffer): StoredConfigFileMeta | undefined {
  try {
    const parsed = metaSchema.safeParse(JSON.parse(raw.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export class ConfigFileStore {
  private readonly dir: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private readonly onQuarantine: ((file: QuarantinedFile) => void) | undefined;

  constructor(options: {
    dir: string;
    fs?: FileSystem;
    now?: () => number;
    onQuarantine?: (file: QuarantinedFile) => void;
  }) {
    this.dir = options.dir;
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.onQuarantine = options.onQuarantine;
  }

  /** A damaged file (or description) is moved to `quarantine/` with its bytes intact, never deleted. */
  private async quarantine(path: string, reason: string): Promise<void> {
    const file = await quarantineFile(this.fs, path, {
      quarantineDir: join(this.dir, QUARANTINE_DIR),
      reason,
      now: this.now(),
    });
    if (file) this.onQuarantine?.(file);
  }

  private paths(serialNumber: string): { file: string; meta: string } {
    const name = safeName(serialNumber);
    return { file: join(this.dir, `${name}.cbor`), meta: join(this.dir, `${name}.json`) };
  }

  async put(serialNumber: string, bytes: Uint8Array, syncId: string): Promise<StoredConfigFileMeta> {
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const paths = this.paths(serialNumber);
    const meta: StoredConfigFileMeta = {
      serialNumber,
      syncId,
      size: bytes.length,
      fetchedAt: new Date(this.now()).toISOString(),
    };
    // File first, then its description: a crash between leaves a file whose meta is older, and
    // get() trusts the syncId inside the file, not the meta.
    await writeFileDurable(this.fs, paths.file, bytes);
    await writeFileDurable(this.fs, paths.meta, JSON.stringify(meta, null, 2) + '\n');
    return meta;
  }

  /**
   * The device's kept file. A damaged one (or one for another device) is set aside with its
   * description and reported; then, as when none is kept, undefined: the next download replaces it.
   */
  async get(serialNumber: string): Promise<{ bytes: Uint8Array; meta: StoredConfigFileMeta } | undefined> {
    const paths = this.paths(serialNumber);
    const [bytes, rawMeta] = await Promise.all([
      readFileIfExists(this.fs, paths.file),
      readFileIfExists(this.fs, paths.meta),
    ]);
    if (!bytes || !rawMeta) return undefined;
    const meta = readMeta(rawMeta);
    if (!meta) {
      await this.quarantine(
        paths.meta,
        `the description of the configuration file kept for ${serialNumber} is damaged`,
      );
      return undefined;
    }
    let problem: string;
    try {
      const decoded = decodeConfigFile(bytes);
      if (decoded.serialNumber === serialNumber)
        return { bytes: new Uint8Array(bytes), meta: { ...meta, syncId: decoded.syncId } };
      problem = `it is for ${decoded.serialNumber}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const reason = `the configuration file kept for ${serialNumber} cannot be used: ${problem}`;
    await this.quarantine(paths.file, reason);
    await this.quarantine(paths.meta, reason);
    return undefined;
  }

  async list(): Promise<StoredConfigFileMeta[]> {
    const metas: StoredConfigFileMeta[] = [];
    for await (const { name, path, raw } of readJsonFiles(this.fs, this.dir)) {
      const meta = readMeta(raw);
      if (meta) metas.push(meta);
      else await this.quarantine(path, `the description ${name} of a kept configuration file is damaged`);
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
