import { CoreError, type SessionView } from '../../../../contract/index';
import { importedPackageAccount, keyRefusalOf } from '../../../core/index';
import type { CliContext } from '../context';
import { t } from '../cli-language';
import { keptKeyPath } from '../credentials';
import { canonicalServiceUrl } from '../../../../domain/service-url';
import { CliError, EXIT } from '../errors';
import { everyEntry } from './outbox';

export interface LoginOptions {
  url?: string;
  org?: string;
  apiKey?: string;
  apiKeyStdin?: boolean;
  /** Send the key over plain http:// to another computer anyway (a test bench without TLS). */
  insecure?: boolean;
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/**
 * Checks the key with the service's validate operation before keeping it: a typo is reported now,
 * not on the plant floor. The core signs in by the app's own policy (`session.signIn`) and keeps
 * the login where the app keeps its own, the key in a file only the user can read.
 */
export async function login(
  ctx: CliContext,
  options: LoginOptions,
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  if (!options.url || !options.org) throw new CliError(t('cli:login.needsUrlOrg'), EXIT.usage);
  const apiKey = options.apiKeyStdin ? await readStdin(stdin) : (options.apiKey ?? ctx.io.env.PROVISIONER_API_KEY);
  if (!apiKey) throw new CliError(t('cli:login.needsKey'), EXIT.usage);
  let serviceUrl: string;
  try {
    serviceUrl = canonicalServiceUrl(options.url);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message.replace(/\.$/, '') : String(error), EXIT.usage);
  }
  const request = { serviceUrl, orgId: options.org, apiKey, remember: true };
  let session: SessionView;
  try {
    session = await signIn(ctx, request);
  } catch (error) {
    // Plain http:// to another computer: refused before the key is sent, unless --insecure says to send it.
    if (!isInsecureRefusal(error)) throw error;
    if (!options.insecure) throw new CliError(t('cli:login.refusedInsecure', { url: serviceUrl }), EXIT.usage);
    const warning = t('cli:login.insecureWarning', { url: serviceUrl });
    if (ctx.out.json) ctx.out.jsonLine({ event: 'warning', message: warning });
    else ctx.io.stderr.write(`warning: ${warning}\n`);
    session = await signIn(ctx, { ...request, allowPlainHttp: true });
  }
  if (session.status !== 'signedIn') throw new Error('the core answered a sign-in with no login');
  const { keyName, role } = session;
  const path = keptKeyPath(ctx.dirs);
  if (ctx.out.json)
    ctx.out.jsonLine({
      loggedIn: true,
      serviceUrl,
      orgId: options.org,
      keyName,
      role,
      credentialsFile: path,
    });
  else {
    ctx.out.line(
      t('cli:login.done', {
        org: options.org,
        url: serviceUrl,
        hasKeyName: keyName ? 'yes' : 'no',
        keyName: keyName ?? '',
        hasRole: 'yes',
        role,
        path,
      }),
    );
  }
  return EXIT.ok;
}

/** The core's sign-in, a key it did not take said in the CLI's words (its texts, or the service's own error). */
async function signIn(
  ctx: CliContext,
  request: { serviceUrl: string; orgId: string; apiKey: string; remember: boolean; allowPlainHttp?: boolean },
): Promise<SessionView> {
  try {
    return await ctx.core().invoke('session.signIn', request);
  } catch (error) {
    const refusal = keyRefusalOf(error);
    if (refusal?.kind === 'notValid') throw new CliError(t('cli:login.notAccepted', { url: request.serviceUrl }));
    if (refusal?.kind === 'otherOrganization')
      throw new CliError(t('cli:login.otherOrganization', { actual: refusal.organizationId, given: request.orgId }));
    // The service's refusal or the network's failure, as the CLI has always said it (errors.ts).
    if (refusal?.kind === 'callFailed') throw refusal.error;
    throw error;
  }
}

function isInsecureRefusal(error: unknown): boolean {
  return (
    error instanceof CoreError &&
    error.code === 'INVALID_INPUT' &&
    error.violations.some((violation) => violation.code === 'INSECURE_SERVICE_URL')
  );
}

export async function logout(ctx: CliContext): Promise<number> {
  // A saved login that cannot be read (a damaged file of an earlier version) is none to log out of.
  const session = await ctx
    .core()
    .invoke('session.get', {})
    .catch(() => undefined);
  const current = session?.status === 'signedIn' ? session : undefined;
  // The key goes with the login: logged out means no key left on this computer for it. Without a
  // service login nothing is touched (the app may have chosen the local workspace).
  if (current) await ctx.core().invoke('session.signOut', { forget: true });
  const removed = current !== undefined;
  let waiting = 0;
  if (current) {
    waiting = (await everyEntry(ctx)).filter(
      (e) => e.serviceUrl === current.serviceUrl && e.orgId === current.orgId && e.state === 'pending',
    ).length;
  }
  if (ctx.out.json) ctx.out.jsonLine({ loggedOut: removed, pendingConfirmations: waiting });
  else {
    ctx.out.line(
      current
        ? t('cli:logout.loggedOutOf', { org: current.orgId, url: current.serviceUrl })
        : t('cli:logout.notLoggedIn'),
    );
    if (waiting > 0) ctx.out.note(t('cli:logout.waiting', { count: waiting }));
  }
  return EXIT.ok;
}

export async function status(ctx: CliContext): Promise<number> {
  const session = await ctx.core().invoke('session.get', {});
  const current = session.status === 'signedIn' ? session : undefined;
  const pending = await ctx.core().invoke('outbox.pending', {});
  const offline = current ? undefined : await importedPackageAccount(ctx.dirs.data);
  // What a technician reads to a colleague whose laptop was never signed in (package import --root-fingerprint).
  const { rootFingerprint } = await ctx.core().invoke('packages.rootFingerprint', {});
  const account = current
    ? {
        kind: 'service',
        serviceUrl: current.serviceUrl,
        orgId: current.orgId,
        keyName: current.keyName,
        role: current.role,
        rootFingerprint,
      }
    : offline
      ? {
          kind: 'offline-package',
          serviceUrl: offline.serviceUrl,
          orgId: offline.orgId,
          packageId: offline.packageId ?? null,
          rootFingerprint,
        }
      : { kind: 'local-workspace' };
  if (ctx.out.json) {
    ctx.out.jsonLine({ account, dataDir: ctx.dirs.data, configDir: ctx.dirs.config, outbox: pending });
    return EXIT.ok;
  }
  if (current)
    ctx.out.line(
      t('cli:status.loggedIn', {
        org: current.orgId,
        url: current.serviceUrl,
        hasRole: current.role ? 'yes' : 'no',
        role: current.role ?? '',
      }),
    );
  else if (offline) {
    ctx.out.line(
      t('cli:status.offline', {
        org: offline.orgId,
        url: offline.serviceUrl,
        hasConfiguration: offline.configurationName ? 'yes' : 'no',
        configuration: offline.configurationName ?? '',
      }),
    );
  } else ctx.out.line(t('cli:status.local'));
  if (rootFingerprint) ctx.out.line(t('cli:status.rootFingerprint', { fingerprint: rootFingerprint }));
  ctx.out.line(
    pending.count === 0
      ? t('cli:status.outboxEmpty')
      : t('cli:status.outboxWaiting', { count: pending.count, since: pending.oldestCreatedAt ?? '' }),
  );
  if (pending.rejected > 0) ctx.out.line(t('cli:status.outboxRefused', { count: pending.rejected }));
  ctx.out.line(t('cli:status.data', { dir: ctx.dirs.data }));
  return EXIT.ok;
}
