import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { fileLoginStoreIn, type LoginStore, type SavedLogin } from '../../core';
import { nodeFileSystem, removeDurable } from '../../../platform/durable-file';
import type { DataDirs } from '../../../platform/data-dirs';
import { QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';
import { serviceKey } from '../../../domain/service-url';

/**
 * The CLI's login is the core's (main/core/login-store.ts): the account to sign in to in the
 * settings file, the key in the secret store, both in the core data directory web mode uses
 * (`dirs.web`), so a login made here is the app's and the reverse. A CLI has no OS key store to
 * ask on a build server: the key is in a file only the user can read (0600 in a 0700 folder).
 */
export function cliLoginStore(dirs: DataDirs, onQuarantine?: (file: QuarantinedFile) => void): LoginStore {
  return fileLoginStoreIn(dirs.web, onQuarantine);
}

/** Where the key is kept, as the CLI tells the person who logged in. */
export function keptKeyPath(dirs: DataDirs): string {
  return join(dirs.web, 'secrets.json');
}

/** What earlier versions wrote: the whole login, key included, in `<config>/credentials.json`. */
const legacyCredentialsSchema = z.object({
  format: z.literal('provisioner-credentials/1'),
  serviceUrl: z.string().url(),
  orgId: z.string().min(1),
  apiKey: z.string().min(1),
  keyName: z.string().nullable(),
  role: z.string().nullable(),
  savedAt: z.string(),
});

export function legacyCredentialsPath(configDir: string): string {
  return join(configDir, 'credentials.json');
}

export class CredentialsFileError extends Error {
  override readonly name = 'CredentialsFileError';
}

/** What happened to a login an earlier version left in credentials.json, for the note the CLI prints. */
export type LegacyLoginOutcome =
  { kind: 'moved'; from: string; login: SavedLogin } | { kind: 'dropped'; from: string; kept: SavedLogin };

/**
 * The saved login. A login an earlier version saved in credentials.json is read once and moved
 * into the store (then the file is removed), unless the store already holds one: that one is
 * newer in kind (the app's, or this version's), and the old file goes. A damaged file is set
 * aside, never deleted, and reported.
 */
export async function readSavedLogin(
  dirs: DataDirs,
  store: LoginStore,
  onLegacy: (outcome: LegacyLoginOutcome) => void,
): Promise<SavedLogin | undefined> {
  const legacy = await readLegacyCredentials(dirs.config);
  const saved = await store.read();
  if (!legacy) return saved;
  const from = legacyCredentialsPath(dirs.config);
  if (!saved) await store.save(legacy);
  // Only once the key is in the store: a crash in between leaves the file, to be moved next run.
  await removeDurable(nodeFileSystem, from);
  onLegacy(saved ? { kind: 'dropped', from, kept: saved } : { kind: 'moved', from, login: legacy });
  return saved ?? legacy;
}

async function readLegacyCredentials(configDir: string): Promise<SavedLogin | undefined> {
  const path = legacyCredentialsPath(configDir);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = legacyCredentialsSchema.safeParse(parseJson(raw));
  if (parsed.success) {
    const { serviceUrl, orgId, apiKey, keyName, role } = parsed.data;
    // An earlier version may spell the URL otherwise: kept in the canonical form.
    return { serviceUrl: serviceKey(serviceUrl), orgId, apiKey, keyName, role };
  }
  // Set aside, never deleted: the next run starts logged out instead of failing here every time,
  // and the bytes stay for support.
  const file = await quarantineFile(nodeFileSystem, path, {
    quarantineDir: join(configDir, QUARANTINE_DIR),
    reason: 'the saved login is damaged',
    now: Date.now(),
  });
  const where = file ? `; it was set aside as ${file.path}` : '';
  throw new CredentialsFileError(
    `The saved login (${path}) is damaged${where}. Log in again with "provisioner login".`,
  );
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
