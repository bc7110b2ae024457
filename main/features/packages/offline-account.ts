import { createServiceClient, NetworkError, type ServiceClient } from '../../cloud';
import { readImportRecords } from './enrolment-grants';

/**
 * The account of a laptop that has never been signed in but imported a work package: the
 * package's service and organization, so that the package's files are found and this laptop's
 * confirmations are filed where they belong. Its client holds no key and sends nothing: every call
 * fails as if the service could not be reached, before a byte leaves the laptop, so the jobs take
 * what the package brought from the caches and the confirmations wait in the outbox (and go back
 * in the confirmations file). Signing in is the only way a laptop starts talking to a service; a
 * package never names where a key goes.
 */

export interface OfflinePackageAccount {
  serviceUrl: string;
  orgId: string;
  /** The package that named it: the newest imported while not signed in. */
  packageId: string | undefined;
  configurationName: string | undefined;
}

export const NOT_SIGNED_IN_MESSAGE =
  'Not sent: this laptop is not signed in, and it talks to no service until someone signs in (provisioner login); the work package’s files are used offline';

/** The newest package imported here while not signed in names the account; undefined when there is none. */
export async function offlinePackageAccount(recordDir: string): Promise<OfflinePackageAccount | undefined> {
  const records = (await readImportRecords(recordDir)).filter((record) => record.notSignedIn === true);
  const newest = records.reduce<(typeof records)[number] | undefined>(
    (best, record) => (!best || record.importedAt > best.importedAt ? record : best),
    undefined,
  );
  if (!newest) return undefined;
  return {
    serviceUrl: newest.origin.serviceUrl,
    orgId: newest.origin.orgId,
    packageId: newest.packageId,
    configurationName: newest.configuration?.name,
  };
}

/** A client that never sends: each call is a NetworkError saying why, at once and without retrying. */
export function offlineClient(account: Pick<OfflinePackageAccount, 'serviceUrl' | 'orgId'>): ServiceClient {
  return createServiceClient({
    baseUrl: account.serviceUrl,
    orgId: account.orgId,
    // No key exists here; the transport wants a string, and this one is never sent anywhere.
    apiKey: '',
    retry: { attempts: 1 },
    fetch: (input, init) => {
      const path = String(input).startsWith(account.serviceUrl)
        ? String(input).slice(account.serviceUrl.length)
        : String(input);
      return Promise.reject(
        new NetworkError('unreachable', { method: init?.method ?? 'GET', path }, undefined, NOT_SIGNED_IN_MESSAGE),
      );
    },
  });
}
