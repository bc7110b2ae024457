import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { PrecodedStream } from '../../../domain/files/content-coding';
import { errnoCode, nodeFileSystem, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { quarantineFile } from '../../../platform/quarantine';
import { zopfliDeflate } from './zopfli-deflate';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const NAME = /^([0-9a-f]{64})\.(\d{1,2})\.([0-9a-f]{64})\.deflate$/;

/**
 * Deflated streams of firmware images and patches, made once when they enter the cache
 * (`deflated/`) and sent to every device that takes deflate from then on: zopfli's are 3 to 5 %
 * smaller than zlib's, and take seconds to make, so never at upload time. A file is named
 * `<sha256 of the source>.<windowBits>.<sha256 of the stream>.deflate`. On every read the stream
 * must hash to its name and inflate to the source it names; one that does not goes to the cache's
 * quarantine and the host deflates with zlib instead. Either way the device verifies the image it
 * decodes against the signed manifest.
 */
export class DeflatedStore {
  private readonly dir: string;

  constructor(
    cacheDir: string,
    private readonly quarantineDir: string,
    private readonly fs: FileSystem = nodeFileSystem,
    private readonly now: () => number = Date.now,
    private readonly deflate: (source: Uint8Array) => Promise<PrecodedStream | undefined> = zopfliDeflate,
  ) {
    this.dir = join(cacheDir, 'deflated');
  }

  /** The kept stream of `source`, made and kept now if there is none; undefined where none is made (too large). */
  async of(source: Uint8Array): Promise<PrecodedStream | undefined> {
    const sourceSha256 = sha256(source);
    const kept = await this.get(sourceSha256);
    if (kept) return kept;
    const made = await this.deflate(source);
    if (made === undefined) return undefined;
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, join(this.dir, `${sourceSha256}.${made.windowBits}.${sha256(made.bytes)}.deflate`), made.bytes);
    return made;
  }

  /** The intact kept stream of the bytes hashing to `sourceSha256` (hex); damaged ones are quarantined on the way. */
  async get(sourceSha256: string): Promise<PrecodedStream | undefined> {
    for (const name of await this.names()) {
      const match = NAME.exec(name);
      if (!match || match[1] !== sourceSha256) continue;
      const path = join(this.dir, name);
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await this.fs.readFile(path));
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw error;
      }
      const windowBits = Number(match[2]);
      if (sha256(bytes) !== match[3] || !inflatesTo(bytes, windowBits, sourceSha256)) {
        await quarantineFile(this.fs, path, { quarantineDir: this.quarantineDir, reason: 'its bytes no longer hash to its name or inflate to its source', now: this.now() });
        continue;
      }
      return { windowBits, bytes };
    }
    return undefined;
  }

  private async names(): Promise<string[]> {
    try {
      return await this.fs.readdir(this.dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw error;
    }
  }
}

/** Whether `stream` inflates, within 2^windowBits, to bytes hashing to `sourceSha256`. */
function inflatesTo(stream: Uint8Array, windowBits: number, sourceSha256: string): boolean {
  try {
    return sha256(inflateRawSync(stream, { windowBits })) === sourceSha256;
  } catch {
    return false;
  }
}
