import { join } from 'node:path';
import { errnoCode, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { quarantineFile } from '../../../platform/quarantine';

/** A kept file whose name matched and whose bytes passed their check. */
export interface IntactFile {
  match: RegExpExecArray;
  bytes: Uint8Array;
}

/**
 * A folder of the cache whose files are named by what they are made from and what their bytes hash
 * to (the patches, the deflated streams): written durably once, and checked against their name on
 * every read. A file that fails its check goes to the cache's quarantine, bytes intact, and is
 * never sent.
 */
export class HashNamedFiles {
  constructor(
    readonly dir: string,
    private readonly quarantineDir: string,
    private readonly fs: FileSystem,
    private readonly now: () => number,
  ) {}

  async put(name: string, bytes: Uint8Array): Promise<void> {
    await this.fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, join(this.dir, name), bytes);
  }

  /**
   * The files whose name matches `pattern` and is `wanted`, read whole, that pass `check`; the ones
   * that fail it are set aside with `reason`. A file another process removed meanwhile is skipped.
   */
  async *intact(
    pattern: RegExp,
    wanted: (match: RegExpExecArray) => boolean,
    check: (file: IntactFile) => boolean,
    reason: string,
  ): AsyncGenerator<IntactFile> {
    for (const name of await this.names()) {
      const match = pattern.exec(name);
      if (!match || !wanted(match)) continue;
      const path = join(this.dir, name);
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await this.fs.readFile(path));
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        throw error;
      }
      if (!check({ match, bytes })) {
        await quarantineFile(this.fs, path, { quarantineDir: this.quarantineDir, reason, now: this.now() });
        continue;
      }
      yield { match, bytes };
    }
  }

  /** A kept file's size; undefined when another process removed it meanwhile. */
  async size(name: string): Promise<number | undefined> {
    try {
      return (await this.fs.stat(join(this.dir, name))).size;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async names(): Promise<string[]> {
    try {
      return await this.fs.readdir(this.dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw error;
    }
  }
}
