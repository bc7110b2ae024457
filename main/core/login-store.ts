import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { serviceKey } from '../../domain/service-url';
import { FileSecretStore, type SecretStore } from '../../platform/secret-store';
import type { QuarantinedFile } from '../../platform/quarantine';
import { SettingsFile } from './settings-file';

/** A login kept between runs: where, for which organization, with which key, and what the service said of the key. */
export interface SavedLogin {
  /** Canonical (domain/service-url.ts). */
  serviceUrl: string;
  orgId: string;
  apiKey: string;
  keyName: string | null;
  role: string | null;
}

/** Secret names are file names in Electron's store: a digest of where the key belongs. */
export function secretNameFor(serviceUrl: string, orgId: string): string {
  return `api-key-${createHash('sha256').update(`${serviceUrl}\u0000${orgId}`).digest('hex').slice(0, 32)}`;
}

/** The core's settings file in its data directory. */
export function settingsPathIn(coreDataDir: string): string {
  return join(coreDataDir, 'settings.json');
}

/**
 * The secret store of a core that has no OS key store to ask (web mode, the CLI): one file only
 * the user can read (0600 in a 0700 folder) in its data directory.
 */
export function fileSecretStoreIn(
  coreDataDir: string,
  onQuarantine?: (file: QuarantinedFile) => void,
): FileSecretStore {
  return new FileSecretStore(join(coreDataDir, 'secrets.json'), onQuarantine);
}

/**
 * The one place a login is remembered, for the app's account session and for the CLI alike:
 * which service and organization to sign in to again (with the key's name and role) in the
 * settings file, the key itself in the secret store. The pointer is written only once the key is
 * kept, so a login read back always has its key.
 */
export class LoginStore {
  constructor(
    private readonly settings: SettingsFile,
    private readonly secrets: SecretStore,
  ) {}

  /**
   * The saved login; undefined when signed out, on the local workspace, or when the key is gone
   * (forgotten, or kept under another OS account's keyring). A login an earlier version saved
   * under another spelling of the URL is moved to the canonical one.
   */
  async read(): Promise<SavedLogin | undefined> {
    const { resume } = await this.settings.read();
    if (resume?.kind !== 'service') return undefined;
    const written = secretNameFor(resume.serviceUrl, resume.orgId);
    const apiKey = await this.secrets.get(written);
    if (!apiKey) return undefined;
    const login: SavedLogin = {
      serviceUrl: serviceKey(resume.serviceUrl),
      orgId: resume.orgId,
      apiKey,
      keyName: resume.keyName ?? null,
      role: resume.role ?? null,
    };
    if (login.serviceUrl !== resume.serviceUrl) {
      await this.save(login);
      await this.secrets.delete(written);
    }
    return login;
  }

  /**
   * Keeps the key, then names this login as the one to sign in to again. Throws what the secret
   * store throws when it cannot keep the key safely; nothing is named then.
   */
  async save(login: SavedLogin): Promise<void> {
    await this.secrets.set(secretNameFor(login.serviceUrl, login.orgId), login.apiKey);
    await this.settings.update({
      lastServiceUrl: login.serviceUrl,
      lastOrgId: login.orgId,
      resume: {
        kind: 'service',
        serviceUrl: login.serviceUrl,
        orgId: login.orgId,
        keyName: login.keyName,
        role: login.role,
      },
    });
  }

  /** A sign-in not to be remembered: where it was is kept (for the sign-in form), its key is not. */
  async saveWithoutKey(serviceUrl: string, orgId: string): Promise<void> {
    await this.secrets.delete(secretNameFor(serviceUrl, orgId)).catch(() => undefined);
    await this.settings.update({ lastServiceUrl: serviceUrl, lastOrgId: orgId, resume: null });
  }

  /**
   * Nothing to sign in to again at the next start; with `account`, that account's key is
   * forgotten too. Answers whether a service login was saved.
   */
  async forget(account?: { serviceUrl: string; orgId: string }): Promise<boolean> {
    const { resume } = await this.settings.read();
    if (account) await this.secrets.delete(secretNameFor(account.serviceUrl, account.orgId));
    await this.settings.update({ resume: null });
    return resume?.kind === 'service';
  }
}

/** The login store of the core whose data directory is `coreDataDir`, with its secrets in a file there. */
export function fileLoginStoreIn(coreDataDir: string, onQuarantine?: (file: QuarantinedFile) => void): LoginStore {
  return new LoginStore(new SettingsFile(settingsPathIn(coreDataDir)), fileSecretStoreIn(coreDataDir, onQuarantine));
}
