import { safeStorage } from 'electron';
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../platform/durable-file';
import type { SecretStore } from '../../../platform/secret-store';
import type { KnownSecrets } from '../known-secrets';

/** Thrown when a secret would have to be written in plain text; the message says so to the technician. */
export class SecretStorageUnavailableError extends Error {
  override readonly name = 'SecretStorageUnavailableError';
}

/**
 * Secrets (the API key) encrypted with Electron's safeStorage: the OS keychain on macOS, DPAPI on
 * Windows, the Secret Service (GNOME Keyring, KWallet) on Linux. Each secret is one 0600 file in
 * a 0700 folder of userData holding only the ciphertext. Where the OS offers no encryption,
 * including Linux's fallback "basic_text" backend whose key is a constant in Chromium, nothing
 * is written: the technician signs in again next time instead of leaving a key on disk.
 */
export class SafeStorageSecretStore implements SecretStore {
  private readonly dir: string;

  constructor(
    userDataDir: string,
    private readonly secrets: KnownSecrets,
  ) {
    this.dir = join(userDataDir, 'secrets');
  }

  /** Why secrets cannot be stored here, or null when they can. */
  unavailableReason(): string | null {
    if (!safeStorage.isEncryptionAvailable()) {
      return 'the system offers no secret storage (Keychain, Windows DPAPI or a Secret Service such as GNOME Keyring or KWallet)';
    }
    if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') {
      return 'no Secret Service (GNOME Keyring or KWallet) is running, and the fallback would only obscure the key, not encrypt it';
    }
    return null;
  }

  isAvailable(): boolean {
    return this.unavailableReason() === null;
  }

  async get(name: string): Promise<string | null> {
    let encrypted: Buffer;
    try {
      encrypted = await readFile(this.fileFor(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (!this.isAvailable()) return null;
    let value: string;
    try {
      value = safeStorage.decryptString(encrypted);
    } catch {
      // Encrypted under another login keyring or OS account: unusable, so as good as absent.
      return null;
    }
    this.secrets.add(value);
    return value;
  }

  async set(name: string, value: string): Promise<void> {
    this.secrets.add(value);
    const reason = this.unavailableReason();
    if (reason)
      throw new SecretStorageUnavailableError(
        `The API key cannot be remembered on this computer: ${reason}. Provisioner never stores it in plain text; sign in again next time.`,
      );
    const encrypted = safeStorage.encryptString(value);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fileFor(name), encrypted);
  }

  async delete(name: string): Promise<void> {
    try {
      await unlink(this.fileFor(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  private fileFor(name: string): string {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name))
      throw new Error(`Invalid secret name ${JSON.stringify(name)}`);
    return join(this.dir, `${name}.enc`);
  }
}
