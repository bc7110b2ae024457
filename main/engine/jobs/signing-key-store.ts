import { join } from 'node:path';
import { z } from 'zod';
import { NetworkError, type CallOptions } from '../../cloud';
import { nodeFileSystem, readFileIfExists, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import { QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';

/**
 * The service's root key (GET /v1/config-file-signing-key), kept on disk so that files can still be
 * checked before they are sent when the service is unreachable. It certifies each organization's
 * key, and every file carries the certificate of the key that signed it: this one key checks the
 * files of any organization. Asked once per process; a key that changed on the service replaces the
 * stored one.
 */

const storedKeySchema = z.object({
  keyId: z.string(),
  algorithm: z.string(),
  publicKeyPem: z.string(),
  fetchedAt: z.string(),
});
export type StoredSigningKey = z.infer<typeof storedKeySchema>;

export interface SigningKeySource {
  signingKey(call?: CallOptions): Promise<{ keyId: string; algorithm: string; publicKeyPem: string }>;
}

export interface SigningKeyResult {
  key: StoredSigningKey | undefined;
  /** 'service': just asked; 'stored': the service was unreachable, the stored copy is used. */
  origin: 'service' | 'stored' | 'none';
}

export class SigningKeyStore {
  private readonly path: string;
  private readonly fs: FileSystem;
  private readonly now: () => number;
  private readonly onQuarantine: ((file: QuarantinedFile) => void) | undefined;
  private memo: Promise<SigningKeyResult> | undefined;

  constructor(options: {
    dir: string;
    fs?: FileSystem;
    now?: () => number;
    onQuarantine?: (file: QuarantinedFile) => void;
  }) {
    this.path = join(options.dir, 'config-file-signing-key.json');
    this.fs = options.fs ?? nodeFileSystem;
    this.now = options.now ?? Date.now;
    this.onQuarantine = options.onQuarantine;
  }

  /** The key kept on disk. A damaged file is moved to `quarantine/` beside it (bytes intact) and reported: as if none were kept. */
  async stored(): Promise<StoredSigningKey | undefined> {
    const raw = await readFileIfExists(this.fs, this.path);
    if (!raw) return undefined;
    let parsed: StoredSigningKey | undefined;
    try {
      parsed = storedKeySchema.parse(JSON.parse(raw.toString('utf8')));
    } catch {
      const file = await quarantineFile(this.fs, this.path, {
        quarantineDir: join(this.path, '..', QUARANTINE_DIR),
        reason: 'the kept signing key is damaged',
        now: this.now(),
      });
      if (file) this.onQuarantine?.(file);
    }
    return parsed;
  }

  /**
   * Keep a root key that came another way than from the service itself (a signed work package
   * carried to a plant without network), as if the service had answered with it.
   */
  async keep(key: { keyId: string; algorithm: string; publicKeyPem: string }, fetchedAt: string): Promise<void> {
    const stored: StoredSigningKey = {
      keyId: key.keyId,
      algorithm: key.algorithm,
      publicKeyPem: key.publicKeyPem,
      fetchedAt,
    };
    await this.fs.mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, this.path, JSON.stringify(stored, null, 2) + '\n');
    this.memo = undefined;
  }

  get(source: SigningKeySource, call: CallOptions = {}): Promise<SigningKeyResult> {
    this.memo ??= this.fetch(source, call).catch((error: unknown) => {
      this.memo = undefined;
      throw error;
    });
    return this.memo;
  }

  private async fetch(source: SigningKeySource, call: CallOptions): Promise<SigningKeyResult> {
    try {
      const key = await source.signingKey(call);
      const stored: StoredSigningKey = { ...key, fetchedAt: new Date(this.now()).toISOString() };
      const previous = await this.stored();
      if (previous?.publicKeyPem !== stored.publicKeyPem) {
        await this.fs.mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
        await writeFileDurable(this.fs, this.path, JSON.stringify(stored, null, 2) + '\n');
      }
      return { key: stored, origin: 'service' };
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      const stored = await this.stored();
      return { key: stored, origin: stored ? 'stored' : 'none' };
    }
  }
}
