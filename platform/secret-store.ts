import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './durable-file';

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

/** All secrets in one JSON file, mode 0600 in a 0700 folder, replaced atomically. */
export class FileSecretStore implements SecretStore {
  constructor(private readonly path: string) {}

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
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
    } catch {
      // A damaged file holds nothing usable; the technician signs in again.
    }
    return {};
  }

  private async writeAll(all: Record<string, string>): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.path, `${JSON.stringify(all)}\n`);
  }
}
