import { join } from 'node:path';
import {
  signedWorkstationKeyListSchema,
  verifyWorkstationKeyList,
  type SignedWorkstationKeyList,
  type WorkstationKeyListBody,
} from '../../../domain/workstation-key-list';
import { nodeFileSystem, readFileIfExists, writeFileDurable, type FileSystem } from '../../../platform/durable-file';
import type { ServiceClient } from '../../cloud';

/**
 * The organization's signed list of enrolled workstation keys (domain/workstation-key-list.ts),
 * kept beside the account's root key so that `ledger verify --local` checks entries by their
 * workstation's key with no network. It is checked against the root key each time it is read, so
 * a list changed on disk is refused, not believed.
 */

export const WORKSTATION_KEY_LIST_FILE = 'workstation-keys.json';

export class WorkstationKeyCache {
  private readonly path: string;
  private readonly fs: FileSystem;

  constructor(options: { dir: string; fs?: FileSystem }) {
    this.path = join(options.dir, WORKSTATION_KEY_LIST_FILE);
    this.fs = options.fs ?? nodeFileSystem;
  }

  /** Keeps a list already checked against the root key (or one the organization signed, as a work package carries it). */
  async keep(list: SignedWorkstationKeyList): Promise<void> {
    await this.fs.mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await writeFileDurable(this.fs, this.path, JSON.stringify(list) + '\n');
  }

  /** The kept list's body when it checks against the root key; undefined when none is kept; throws when it does not check. */
  async read(options: { rootKeyPem: string; orgId: string }): Promise<WorkstationKeyListBody | undefined> {
    const raw = await readFileIfExists(this.fs, this.path);
    if (!raw) return undefined;
    let list: SignedWorkstationKeyList;
    try {
      list = signedWorkstationKeyListSchema.parse(JSON.parse(raw.toString('utf8')));
    } catch {
      throw new Error(
        `The kept list of workstation keys (${this.path}) is not readable: sign in and verify again to fetch it anew.`,
      );
    }
    return verifyWorkstationKeyList(list, options);
  }
}

/** Asks the service for the organization's signed key list, checks it against the root key, and keeps it. */
export async function refreshWorkstationKeys(
  client: Pick<ServiceClient, 'workstations'>,
  cache: WorkstationKeyCache,
  options: { rootKeyPem: string; orgId: string },
): Promise<WorkstationKeyListBody> {
  const list = await client.workstations.keyList();
  const body = verifyWorkstationKeyList(list, options);
  await cache.keep(list);
  return body;
}
