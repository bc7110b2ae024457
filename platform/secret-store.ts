import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nodeFileSystem, writeFileAtomic } from './durable-file';
import { QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from './quarantine';

/**
 * Where the core keeps the API key between runs. Electron implements it with safeStorage
 * (main/hosts/electron/safe-storage-secret-store.ts); the CLI and web mode with a file only the user can
 * read. `set` may throw when secrets cannot be kept safely: the sign-in still succeeds, the key is
 * just not remembered.
 */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/**
 * All secrets in one JSON file, mode 0600 in a 0700 folder, replaced atomically. A damaged file
 * (not JSON, or not all text values) is moved to `quarantine/` beside it before anything replaces
 * it, and the technician signs in again.
 */
export class FileSecretStore implements SecretStore {
  constructor(
    readonly path: string,
    private readonly onQuarantine?: (file: QuarantinedFile) => void,
  ) {}

  async get(name: string): Promise<string | null> {
    const all = await this.readAll();
    return all[name] ?? null;
  }

  async set(name: string, value: string): Promise<void> {
    const all = await this.readAll();
    all[name] = value;
    await this.writeAll(all);
  }

  async delete(name: string): Promise<void> {
    const all = await this.readAll();
    if (!(name in all)) return;
    delete all[name];
    await this.writeAll(all);
  }

  private async readAll(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const entries = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : undefined;
    const texts = entries?.filter((e): e is [string, string] => typeof e[1] === 'string');
    if (entries && texts && texts.length === entries.length) return Object.fromEntries(texts);
    // Not what this store writes: kept aside, so the next write does not destroy what it held.
    const file = await quarantineFile(nodeFileSystem, this.path, {
      quarantineDir: join(dirname(this.path), QUARANTINE_DIR),
      reason: 'the secrets file is damaged; sign in again',
      now: Date.now(),
    });
    if (file) this.onQuarantine?.(file);
    return Object.fromEntries(texts ?? []);
  }

  private async writeAll(all: Record<string, string>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, `${JSON.stringify(all)}\n`);
  }
}
