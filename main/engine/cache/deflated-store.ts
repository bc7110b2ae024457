import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { PrecodedStream } from '../../../domain/files/content-coding';
import { nodeFileSystem, type FileSystem } from '../../../platform/durable-file';
import { HashNamedFiles } from './hash-named-files';
import { zopfliDeflate } from './zopfli-deflate';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const NAME = /^([0-9a-f]{64})\.(\d{1,2})\.([0-9a-f]{64})\.deflate$/;

/**
 * Deflated streams of firmware images and patches, made once when they enter the cache
 * (`deflated/`) and sent to every device that takes deflate from then on: zopfli's are 3 to 5 %
 * smaller than zlib's, and take seconds to make (on a worker thread: zopfli-in-worker.ts), so never
 * at upload time. A file is named
 * `<sha256 of the source>.<windowBits>.<sha256 of the stream>.deflate`. On every read the stream
 * must hash to its name and inflate to the source it names; one that does not goes to the cache's
 * quarantine and the host deflates with zlib instead. Either way the device verifies the image it
 * decodes against the signed manifest.
 */
export class DeflatedStore {
  private readonly files: HashNamedFiles;
  /**
   * Streams being made, by their source's SHA-256: several jobs of one new release resolve it at
   * once, and each zopfli run takes a worker thread, its memory and seconds of a core.
   */
  private readonly making = new Map<string, Promise<PrecodedStream | undefined>>();

  constructor(
    cacheDir: string,
    quarantineDir: string,
    fs: FileSystem = nodeFileSystem,
    now: () => number = Date.now,
    private readonly deflate: (source: Uint8Array) => Promise<PrecodedStream | undefined> = zopfliDeflate,
  ) {
    this.files = new HashNamedFiles(join(cacheDir, 'deflated'), quarantineDir, fs, now);
  }

  /**
   * The kept stream of `source`, made and kept now if there is none (one making at a time per
   * source: a second caller meanwhile gets the same answer); undefined where none is made (too large).
   */
  of(source: Uint8Array): Promise<PrecodedStream | undefined> {
    const sourceSha256 = sha256(source);
    const inFlight = this.making.get(sourceSha256);
    if (inFlight) return inFlight;
    const making = this.keptOrMade(source, sourceSha256).finally(() => this.making.delete(sourceSha256));
    this.making.set(sourceSha256, making);
    return making;
  }

  private async keptOrMade(source: Uint8Array, sourceSha256: string): Promise<PrecodedStream | undefined> {
    const kept = await this.get(sourceSha256);
    if (kept) return kept;
    const made = await this.deflate(source);
    if (made === undefined) return undefined;
    await this.files.put(`${sourceSha256}.${made.windowBits}.${sha256(made.bytes)}.deflate`, made.bytes);
    return made;
  }

  /** The intact kept stream of the bytes hashing to `sourceSha256` (hex); damaged ones are quarantined on the way. */
  async get(sourceSha256: string): Promise<PrecodedStream | undefined> {
    const intact = this.files.intact(
      NAME,
      (match) => match[1] === sourceSha256,
      ({ match, bytes }) => sha256(bytes) === match[3] && inflatesTo(bytes, Number(match[2]), sourceSha256),
      'its bytes no longer hash to its name or inflate to its source',
    );
    for await (const { match, bytes } of intact) return { windowBits: Number(match[2]), bytes };
    return undefined;
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
