import type { ServiceClient } from '../cloud';
import { offlineClient, offlinePackageAccount, packagePaths, type OfflinePackageAccount } from '../features/packages';

/** The account of a laptop never signed in that imported a work package, with its client that sends nothing. */
export interface ImportedPackageAccount extends OfflinePackageAccount {
  client: ServiceClient;
}

/**
 * The offline account the work packages imported under a data directory name (the newest one
 * imported while not signed in), for a host that settles its own account (the CLI); undefined
 * when none was.
 */
export async function importedPackageAccount(dataDir: string): Promise<ImportedPackageAccount | undefined> {
  const offline = await offlinePackageAccount(packagePaths(dataDir).imported);
  return offline ? { ...offline, client: offlineClient(offline) } : undefined;
}
