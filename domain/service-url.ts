/**
 * One spelling per service. The outbox files each confirmation under the service's URL, and the
 * sender finds the signed-in client by it: two spellings of one service (a trailing slash, an
 * upper-case host, the default port written out) would make two chains of one device's
 * confirmations and leave the ones filed under the other spelling waiting for a login that never
 * matches. The app, the CLI and the outbox all take the URL through here.
 */

export class ServiceUrlError extends Error {
  override readonly name = 'ServiceUrlError';
}

/**
 * The canonical form of a service's base URL: http or https, lower-case host, no default port, no
 * trailing slash, no query or fragment. Throws ServiceUrlError, saying what to write instead, for
 * anything else.
 */
export function canonicalServiceUrl(url: string): string {
  const written = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(written);
  } catch {
    throw new ServiceUrlError(
      `"${written}" is not a URL. Write the service's address with its scheme, e.g. https://dcms.example.com.`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ServiceUrlError(`The service URL must start with http:// or https://, not "${written}".`);
  if (parsed.username !== '' || parsed.password !== '')
    throw new ServiceUrlError(
      `The service URL must not carry a user name or password ("${written}"): the API key is the credential, given apart.`,
    );
  if (parsed.search !== '' || parsed.hash !== '')
    throw new ServiceUrlError(
      `The service URL is the service's base address, without ?query or #fragment ("${written}").`,
    );
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
}

/**
 * The key under which records that name a service (outbox entries, their chains) are grouped:
 * the canonical URL, or the text as written when it is not a URL (an entry written by an earlier
 * version, the local workspace's name), so that reading old records never fails.
 */
export function serviceKey(url: string): string {
  try {
    return canonicalServiceUrl(url);
  } catch {
    return url.trim();
  }
}
