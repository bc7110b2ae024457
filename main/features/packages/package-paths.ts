import { join } from 'node:path';

/** Where work packages keep their state under a data directory: the signing key (CLI and web mode) and the record of imports. */
export interface PackagePaths {
  /**
   * The 0600 secrets file of the data directory (where web mode keeps its secrets and the ledger its
   * key): the workstation's package signing key is kept with them, where no OS keychain is used.
   */
  secrets: string;
  /** One JSON file per imported package. */
  imported: string;
}

export function packagePaths(dataDir: string): PackagePaths {
  const dir = join(dataDir, 'work-packages');
  return { secrets: join(dataDir, 'secrets.json'), imported: join(dir, 'imported') };
}
