import { isIPv4 } from 'node:net';
import { rootKeyFingerprint } from '../../domain/files/config-file-signature';
import { canonicalServiceUrl, ServiceUrlError } from '../../domain/service-url';
import { createServiceClient, type ServiceClient } from '../cloud';
import { CoreError, type SessionView } from '../../contract/index';
import type { Account } from '../engine/account';
import type { CoreLog } from '../engine/core-log';
import { capabilitiesOf } from './capabilities';
import { toCoreError } from './errors';
import type { LoginStore } from './login-store';

/**
 * The one sign-in policy with an API key, for the app's account session and the CLI's core alike
 * (docs/decisions.md, "One sign-in policy for the app and the CLI"): the URL in its canonical
 * form, no key over plain http:// to another computer, the key checked with the service before it
 * is trusted, and then kept in the login store they share.
 */

export type ClientFactory = (options: { baseUrl: string; orgId: string; apiKey: string }) => ServiceClient;

/** What the service said of a key it accepted, and a client holding it. */
export type ValidatedKey = Omit<Account, 'kind' | 'serviceUrl' | 'orgId' | 'remembered'>;

/** A key accepted for a service and organization, and whether it is kept for the next start. */
export type KeySignedIn = ValidatedKey & { serviceUrl: string; orgId: string; remembered: boolean };

export interface KeySignInRequest {
  serviceUrl: string;
  orgId: string;
  apiKey: string;
  /** Keep the key for the next start (the app's checkbox; the CLI always does). */
  remember: boolean;
  /** Send the key over plain http:// to another computer anyway: only the CLI's `--insecure` may ask. */
  allowPlainHttp?: boolean;
}

export interface KeySignInDeps {
  createClient?: ClientFactory;
  /** Where an accepted key is kept (the CLI's moves a login an earlier version left first). */
  logins: Pick<LoginStore, 'save' | 'saveWithoutKey'>;
  log: Pick<CoreLog, 'addSecret' | 'warn'>;
  /**
   * When the key was accepted but could not be kept: the app signs in for this run and warns
   * ('warn'); the CLI, whose login is only what it keeps, fails with the store's error ('throw').
   */
  whenNotKept: 'warn' | 'throw';
}

/**
 * Why a key was not taken, as a host that says it in its own words needs it (the CLI's texts):
 * the service's answer read "not valid", it named another organization, or the call failed (the
 * client's own error: a refusal, the network, …). Kept beside the CoreError the app shows as is.
 */
export type KeyRefusal =
  { kind: 'notValid' } | { kind: 'otherOrganization'; organizationId: string } | { kind: 'callFailed'; error: unknown };

const refusals = new WeakMap<CoreError, KeyRefusal>();

function refused(error: CoreError, refusal: KeyRefusal): CoreError {
  refusals.set(error, refusal);
  return error;
}

/** Why the key of a failed sign-in was not taken, when that is why it failed (in this process only). */
export function keyRefusalOf(error: unknown): KeyRefusal | undefined {
  return error instanceof CoreError ? refusals.get(error) : undefined;
}

/** The canonical URL of the service signed in to, or INVALID_INPUT saying what to write instead. */
export function serviceUrlOf(written: string): string {
  try {
    return canonicalServiceUrl(written);
  } catch (error) {
    if (!(error instanceof ServiceUrlError)) throw error;
    throw new CoreError('INVALID_INPUT', error.message, [
      { code: 'INVALID_SERVICE_URL', field: 'serviceUrl', message: error.message },
    ]);
  }
}

/** This computer's own addresses: 127.0.0.0/8, ::1 (also as ::ffff:127.x.x.x) and localhost. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || host === '::1') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  // The URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/**
 * Whether signing in at `serviceUrl` would send the API key unencrypted over a network: plain
 * http:// to anything but this computer. Anyone on the plant network could read the key on the
 * way and act with its role. (The local workspace is http:// on loopback, which never leaves the
 * machine.)
 */
export function isPlainHttpOverNetwork(serviceUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(serviceUrl);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}

/**
 * Signs in with a key: checks it with the service, then keeps it (or, not to be remembered, only
 * where it was). Throws INVALID_INPUT for a URL to rewrite or plain http:// to another computer
 * (detail INSECURE_SERVICE_URL), AUTH_FAILED or SERVICE_UNREACHABLE when the key was not taken
 * (keyRefusalOf says why); nothing is kept then.
 */
export async function signInWithKey(deps: KeySignInDeps, request: KeySignInRequest): Promise<KeySignedIn> {
  const serviceUrl = serviceUrlOf(request.serviceUrl);
  deps.log.addSecret(request.apiKey);
  if (isPlainHttpOverNetwork(serviceUrl) && !request.allowPlainHttp) {
    const message = `Not signing in at ${serviceUrl}: over http:// the API key would cross the network unencrypted, readable by anyone on the way. Use the service's https:// address (plain http:// is only for this computer: localhost, 127.0.0.1, ::1).`;
    throw new CoreError('INVALID_INPUT', message, [{ code: 'INSECURE_SERVICE_URL', field: 'serviceUrl', message }]);
  }
  const validated = await validateKey(deps.createClient, serviceUrl, request.orgId, request.apiKey);
  let remembered = false;
  if (request.remember) {
    try {
      const { keyName, role } = validated;
      await deps.logins.save({ serviceUrl, orgId: request.orgId, apiKey: request.apiKey, keyName, role });
      remembered = true;
    } catch (err) {
      if (deps.whenNotKept === 'throw') throw err;
      deps.log.warn('session', `The key is not remembered: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (!remembered) await deps.logins.saveWithoutKey(serviceUrl, request.orgId);
  return { serviceUrl, orgId: request.orgId, remembered, ...validated };
}

/**
 * Asks the service whether the key belongs to the organization, once (a person signing in tries
 * again; a retry would only make the answer late). A key the service names for another
 * organization, or names no role, is refused as one it does not accept.
 */
export async function validateKey(
  createClient: ClientFactory = (options) => createServiceClient(options),
  serviceUrl: string,
  orgId: string,
  apiKey: string,
): Promise<ValidatedKey> {
  const client = createClient({ baseUrl: serviceUrl, orgId, apiKey });
  let result;
  try {
    result = await client.apiKeys.validate(apiKey, { retry: false });
  } catch (err) {
    const core = toCoreError(err);
    const refusal: KeyRefusal = { kind: 'callFailed', error: err };
    if (core.code === 'AUTH_FAILED' || core.code === 'NOT_ALLOWED') {
      const message = `The service at ${serviceUrl} does not accept this key for organization ${orgId}. Check the organization and the key.`;
      throw refused(new CoreError('AUTH_FAILED', message, [], core.httpStatus), refusal);
    }
    if (core.code === 'SERVICE_UNREACHABLE')
      throw refused(
        new CoreError('SERVICE_UNREACHABLE', `Cannot reach the service at ${serviceUrl}: ${core.message}`),
        refusal,
      );
    throw refused(core, refusal);
  }
  const { organizationId } = result;
  const otherOrganization = result.valid && organizationId !== null && organizationId !== orgId;
  if (!result.valid || !result.role || otherOrganization) {
    const message = `The key is not valid for organization ${orgId} at ${serviceUrl}.`;
    throw refused(
      new CoreError('AUTH_FAILED', message),
      otherOrganization && organizationId !== null
        ? { kind: 'otherOrganization', organizationId }
        : { kind: 'notValid' },
    );
  }
  // Shown beside the service (what a laptop never signed in needs to import its work packages); not having it stops nothing.
  const rootFingerprint = await (async () =>
    rootKeyFingerprint((await client.signingKey({ retry: false })).publicKeyPem))().catch(() => null);
  return {
    keyName: result.keyName,
    role: result.role,
    organizationName: result.organizationName ?? null,
    region: result.region ?? null,
    rootFingerprint,
    client,
  };
}

/** A signed-in account as the contract shows it: never its key. */
export function signedInView(account: Omit<Account, 'client'>): SessionView {
  return {
    status: 'signedIn',
    kind: account.kind,
    serviceUrl: account.serviceUrl,
    orgId: account.orgId,
    organizationName: account.organizationName,
    region: account.region,
    keyName: account.keyName,
    role: account.role,
    capabilities: capabilitiesOf(account.role),
    remembered: account.remembered,
    rootFingerprint: account.rootFingerprint ?? null,
  };
}
