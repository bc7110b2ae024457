import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { nodeFileSystem, removeDurable, writeFileAtomic } from '../../../platform/durable-file';
import { QUARANTINE_DIR, quarantineFile } from '../../../platform/quarantine';
import { serviceKey } from '../../../domain/service-url';

/**
 * The login: service URL, organization and API key, in one file readable only by the user (0600,
 * in a 0700 directory), written atomically. The desktop app keeps its key with the OS keychain
 * instead; a CLI on a build server has no keychain to ask.
 */

const credentialsSchema = z.object({
  format: z.literal('provisioner-credentials/1'),
  serviceUrl: z.string().url(),
  orgId: z.string().min(1),
  apiKey: z.string().min(1),
  keyName: z.string().nullable(),
  role: z.string().nullable(),
  savedAt: z.string(),
});
export type Credentials = z.infer<typeof credentialsSchema>;

export function credentialsPath(configDir: string): string {
  return join(configDir, 'credentials.json');
}

export class CredentialsFileError extends Error {
  override readonly name = 'CredentialsFileError';
}

export async function readCredentials(configDir: string): Promise<Credentials | undefined> {
  const path = credentialsPath(configDir);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = credentialsSchema.safeParse(parseJson(raw));
  // A login saved by an earlier version may spell the URL otherwise: read in the canonical form.
  if (parsed.success) return { ...parsed.data, serviceUrl: serviceKey(parsed.data.serviceUrl) };
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

export async function writeCredentials(
  configDir: string,
  credentials: Omit<Credentials, 'format' | 'savedAt'>,
  now = new Date(),
): Promise<string> {
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const path = credentialsPath(configDir);
  const full: Credentials = { format: 'provisioner-credentials/1', ...credentials, savedAt: now.toISOString() };
  await writeFileAtomic(path, JSON.stringify(full, null, 2) + '\n', 0o600);
  return path;
}

export function removeCredentials(configDir: string): Promise<boolean> {
  return removeDurable(nodeFileSystem, credentialsPath(configDir));
}
