import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  generateReleaseKeyPair,
  releaseKeyFromPem,
  releaseKeyPairFromPrivateKey,
  type ReleaseKeyPair,
} from '../../domain/files/firmware-release-key';
import { createFileOnce, errnoCode, writeFileAtomic } from '../../platform/durable-file';
import type { Queryable } from '../db/database';
import { trustReleaseKey, type TrustOutcome } from './release-keys';

/**
 * The default release key of a service data directory, for local use and tests: the demo seed, the
 * local workspace and `firmware build` without `--release-key` sign with it. Made on first use in
 * `<data dir>/release-keys/default.pem` (0600), with its public half beside it in `default.pub`
 * for simulated devices (`--release-key-pub`). A real release key is made with `release-key
 * create` and kept away from the service.
 */

export function defaultReleaseKeyDir(dataDir: string): string {
  return join(dataDir, 'release-keys');
}

export async function loadDefaultReleaseKey(dataDir: string): Promise<ReleaseKeyPair> {
  const dir = defaultReleaseKeyDir(dataDir);
  const path = join(dir, 'default.pem');
  let pem = await readFile(path, 'utf8').catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (pem === undefined) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Of two processes making the key at once, both end up with the one that got there first.
    await createFileOnce(path, generateReleaseKeyPair().privateKeyPem, 0o600);
    pem = await readFile(path, 'utf8');
  }
  const pair = releaseKeyPairFromPrivateKey(pem);
  // Private too, although public: everything in a data directory is its owner's alone.
  await writeFileAtomic(join(dir, 'default.pub'), pair.publicKeyPem, 0o600);
  return pair;
}

/** The name the service gives its default release key when it trusts it. */
export const DEFAULT_RELEASE_KEY_NAME = 'default release key';

/** The default key, trusted by the database of the same service (what local use needs to import what it signs). */
export async function trustDefaultReleaseKey(db: Queryable, key: ReleaseKeyPair): Promise<TrustOutcome> {
  return trustReleaseKey(db, releaseKeyFromPem(key.publicKeyPem, DEFAULT_RELEASE_KEY_NAME));
}
