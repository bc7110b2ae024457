import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake, safeStorage } from './fake-electron';

vi.mock('electron', () => import('./fake-electron'));

const { SafeStorageSecretStore, SecretStorageUnavailableError } =
  await import('../../../../main/hosts/electron/safe-storage-secret-store');
const { KnownSecrets } = await import('../../../../main/hosts/known-secrets');

const KEY = 'pk_live_0123456789abcdef0123456789abcdef';
let userData: string;

beforeEach(async () => {
  fake.reset();
  userData = await mkdtemp(join(tmpdir(), 'provisioner-secrets-'));
});
afterEach(async () => {
  await rm(userData, { recursive: true, force: true });
});

describe('API key in safeStorage', () => {
  it('stores only ciphertext, in a 0600 file inside a 0700 folder, and reads it back', async () => {
    const store = new SafeStorageSecretStore(userData, new KnownSecrets());
    await store.set('api-key', KEY);
    const dir = join(userData, 'secrets');
    const [file] = await readdir(dir);
    expect(file).toBe('api-key.enc');
    const bytes = await readFile(join(dir, 'api-key.enc'));
    expect(bytes.toString('utf8')).not.toContain(KEY);
    expect(bytes.toString('latin1')).not.toContain(KEY);
    if (process.platform !== 'win32') {
      expect((await stat(join(dir, 'api-key.enc'))).mode & 0o777).toBe(0o600);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
    }
    expect(await new SafeStorageSecretStore(userData, new KnownSecrets()).get('api-key')).toBe(KEY);
  });

  it('refuses to store when the OS has no encryption, and says so', async () => {
    safeStorage.available = false;
    const store = new SafeStorageSecretStore(userData, new KnownSecrets());
    expect(store.isAvailable()).toBe(false);
    await expect(store.set('api-key', KEY)).rejects.toThrow(SecretStorageUnavailableError);
    await expect(store.set('api-key', KEY)).rejects.toThrow(/cannot be remembered.*never stores it in plain text/);
    await expect(readdir(userData)).resolves.toEqual([]);
  });

  it.runIf(process.platform === 'linux')("refuses Linux's basic_text backend, whose key is a constant", async () => {
    safeStorage.backend = 'basic_text';
    const store = new SafeStorageSecretStore(userData, new KnownSecrets());
    expect(store.unavailableReason()).toMatch(/Secret Service/);
    await expect(store.set('api-key', KEY)).rejects.toThrow(SecretStorageUnavailableError);
    await expect(readdir(userData)).resolves.toEqual([]);
  });

  it('treats a missing or undecryptable secret as absent, and deletes idempotently', async () => {
    const store = new SafeStorageSecretStore(userData, new KnownSecrets());
    expect(await store.get('api-key')).toBeNull();
    await store.set('api-key', KEY);
    await writeFile(join(userData, 'secrets', 'api-key.enc'), 'garbage from another keyring');
    expect(await store.get('api-key')).toBeNull();
    await store.delete('api-key');
    await store.delete('api-key');
    expect(await store.get('api-key')).toBeNull();
  });

  it('makes every key it stores or loads a secret the IPC layer withholds', async () => {
    const secrets = new KnownSecrets();
    await new SafeStorageSecretStore(userData, secrets).set('api-key', KEY);
    const loadedSecrets = new KnownSecrets();
    await new SafeStorageSecretStore(userData, loadedSecrets).get('api-key');
    expect(loadedSecrets.scrub({ m: `key ${KEY}` })).toEqual({ m: 'key [redacted]' });
    expect(secrets.scrub(KEY)).toBe('[redacted]');
  });

  it('accepts only plain names, so a name cannot point outside its folder', async () => {
    const store = new SafeStorageSecretStore(userData, new KnownSecrets());
    await expect(store.set('../escape', KEY)).rejects.toThrow(/Invalid secret name/);
    await expect(store.get('/etc/passwd')).rejects.toThrow(/Invalid secret name/);
  });
});
