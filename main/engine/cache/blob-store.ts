import { dirname, join } from 'node:path';
import { sha256Hex } from '../../../domain/files/firmware-bundle';
import {
  fsyncDir,
  isTempName,
  readFileIfExists,
  removeDurable,
  removeStaleTemps,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';
import { quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';

/**
 * Bytes stored once each, named by their SHA-256 (`<dir>/<sha256>.zip`). The name is the only
 * claim about the content: readers hash again before trusting it (verified-bundle.ts).
 */

/** Temp files younger than this may belong to a write still running in another process. */
export const TEMP_GRACE_MS = 60 * 60_000;
const BLOB_NAME = /^[0-9a-f]{64}\.zip$/;

export class BlobStore {
  private ready: Promise<void> | undefined;

  constructor(
    readonly dir: string,
    /** Where blobs that fail their check are moved to (never deleted). */
    private readonly quarantineDir: string,
    private readonly fs: FileSystem,
    private readonly now: () => number,
  ) {}

  path(sha256: string): string {
    return join(this.dir, `${sha256}.zip`);
  }

  /** Creates the directory and clears temp files a crashed write left behind, once per process. */
  open(): Promise<void> {
    this.ready ??= (async () => {
      await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await fsyncDir(this.fs, dirname(this.dir));
      await removeStaleTemps(this.fs, this.dir, TEMP_GRACE_MS, this.now());
    })();
    return this.ready;
  }

  /** Stores the bytes under their SHA-256 and returns it; an intact copy already there is kept. */
  async write(bytes: Uint8Array): Promise<string> {
    await this.open();
    const sha256 = sha256Hex(bytes);
    const path = this.path(sha256);
    const existing = await readFileIfExists(this.fs, path);
    if (!existing || sha256Hex(existing) !== sha256) await writeFileDurable(this.fs, path, bytes, 0o600);
    return sha256;
  }

  /** The stored bytes, unchecked; undefined when there is no such blob. */
  async read(sha256: string): Promise<Uint8Array | undefined> {
    await this.open();
    return readFileIfExists(this.fs, this.path(sha256));
  }

  /** When the blob was written: the fetch time of a blob whose index entry was lost. */
  async writtenAt(sha256: string): Promise<Date> {
    return new Date((await this.fs.stat(this.path(sha256))).mtimeMs);
  }

  /** Deletes a healthy blob nobody wants any more (pruning). */
  async remove(sha256: string): Promise<void> {
    await removeDurable(this.fs, this.path(sha256));
  }

  /** Moves a blob that failed its check aside; undefined when it was gone already. */
  quarantine(sha256: string, reason: string): Promise<QuarantinedFile | undefined> {
    return quarantineFile(this.fs, this.path(sha256), { quarantineDir: this.quarantineDir, reason, now: this.now() });
  }

  /** The SHA-256 of every blob present (temp files of unfinished writes are not blobs). */
  async list(): Promise<Set<string>> {
    await this.open();
    const names = await this.fs.readdir(this.dir);
    return new Set(names.filter((n) => !isTempName(n) && BLOB_NAME.test(n)).map((n) => n.slice(0, 64)));
  }
}
