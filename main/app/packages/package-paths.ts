import { join } from 'node:path';

/** Where work packages keep their state under a data directory: the signing key (CLI and web mode) and the record of imports. */
export interface PackagePaths {
  /** A 0600 secrets file holding the workstation's package signing key, where no OS keychain is used. */
  secrets: string;
  /** One JSON file per imported package. */
  imported: string;
}

export function packagePaths(dataDir: string): PackagePaths {
  const dir = join(dataDir, 'work-packages');
  return { secrets: join(dir, 'secrets.json'), imported: join(dir, 'imported') };
}
