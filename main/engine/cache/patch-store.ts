import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { FileFormatError } from '../../../domain/files/file-error';
import { parseFirmwarePatchHeader } from '../../../domain/files/firmware-patch';
import { nodeFileSystem, type FileSystem } from '../../../platform/durable-file';
import { HashNamedFiles } from './hash-named-files';

/** A patch the cache holds: from the image whose SHA-256 is `baseSha256` (hex) to `targetSha256`'s. */
export interface CachedPatch {
  baseSha256: string;
  targetSha256: string;
  patch: Uint8Array;
}

/** A patch as the cache lists it, without its bytes. */
export interface KeptPatch {
  baseSha256: string;
  targetSha256: string;
  size: number;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const NAME = /^([0-9a-f]{64})\.([0-9a-f]{64})\.([0-9a-f]{64})\.patch$/;

/**
 * Firmware patches kept beside the bundles (`patches/`), so that an install without the service
 * still sends a patch. A file is named `<base>.<target>.<sha256 of its bytes>.patch`: which images
 * it joins and what its bytes hash to, checked on every read. A damaged file goes to the cache's
 * quarantine and is never sent. A patch needs no signature of its own: the device verifies the
 * image it builds against the bundle's signed manifest.
 */
export class PatchStore {
  private readonly files: HashNamedFiles;

  constructor(cacheDir: string, quarantineDir: string, fs: FileSystem = nodeFileSystem, now: () => number = Date.now) {
    this.files = new HashNamedFiles(join(cacheDir, 'patches'), quarantineDir, fs, now);
  }

  /** Keeps a patch; its header says which images it joins. Refuses bytes that are not a patch. */
  async put(patch: Uint8Array, expect: { baseSha256?: string; targetSha256?: string } = {}): Promise<CachedPatch> {
    const header = parseFirmwarePatchHeader(patch);
    const baseSha256 = hex(header.baseSha256);
    const targetSha256 = hex(header.targetSha256);
    if (
      (expect.baseSha256 !== undefined && expect.baseSha256 !== baseSha256) ||
      (expect.targetSha256 !== undefined && expect.targetSha256 !== targetSha256)
    ) {
      throw new FileFormatError(
        'FW_CODING_CORRUPT',
        'The firmware patch joins other images than the service said; it was not kept.',
      );
    }
    await this.files.put(`${baseSha256}.${targetSha256}.${sha256(patch)}.patch`, patch);
    return { baseSha256, targetSha256, patch };
  }

  /** Whether a patch between these images is kept (not checked: get() checks). */
  async has(baseSha256: string, targetSha256: string): Promise<boolean> {
    return (await this.files.names()).some((name) => name.startsWith(`${baseSha256}.${targetSha256}.`));
  }

  /** Every patch kept, by its name: which images it joins and its size (not re-hashed: to() checks). */
  async list(): Promise<KeptPatch[]> {
    const kept: KeptPatch[] = [];
    for (const name of await this.files.names()) {
      const match = NAME.exec(name);
      if (!match) continue;
      const size = await this.files.size(name);
      if (size !== undefined) kept.push({ baseSha256: match[1]!, targetSha256: match[2]!, size });
    }
    return kept;
  }

  /** The intact patches to the image `targetSha256`; damaged ones are quarantined on the way. */
  async to(targetSha256: string): Promise<CachedPatch[]> {
    const found: CachedPatch[] = [];
    const intact = this.files.intact(
      NAME,
      (match) => match[2] === targetSha256,
      ({ match, bytes }) => sha256(bytes) === match[3],
      'its bytes no longer hash to its name',
    );
    for await (const { match, bytes } of intact) found.push({ baseSha256: match[1]!, targetSha256, patch: bytes });
    return found;
  }
}
