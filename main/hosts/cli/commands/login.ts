import { createServiceClient } from '../../../cloud';
import { importedPackageAccount, isPlainHttpOverNetwork } from '../../../core/index';
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
 * not on the plant floor. The login is kept where the app keeps its own (the core's login store),
 * the key in a file only the user can read.
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
  if (isPlainHttpOverNetwork(serviceUrl)) {
    if (!options.insecure) {
      throw new CliError(t('cli:login.refusedInsecure', { url: serviceUrl }), EXIT.usage);
    }
    const warning = t('cli:login.insecureWarning', { url: serviceUrl });
    if (ctx.out.json) ctx.out.jsonLine({ event: 'warning', message: warning });
    else ctx.io.stderr.write(`warning: ${warning}\n`);
  }
  const client = createServiceClient({ baseUrl: serviceUrl, orgId: options.org, apiKey, retry: { attempts: 2 } });
  const result = await client.apiKeys.validate(apiKey);
  if (!result.valid) throw new CliError(t('cli:login.notAccepted', { url: serviceUrl }));
  if (result.organizationId !== null && result.organizationId !== options.org) {
    throw new CliError(t('cli:login.otherOrganization', { actual: result.organizationId, given: options.org }));
  }
  // A login an earlier version left is moved (or dropped) first, so this one is the login that stays.
  await ctx.login();
  await ctx.loginStore().save({
    serviceUrl,
    orgId: options.org,
    apiKey,
    keyName: result.keyName,
    role: result.role ?? null,
  });
  const path = keptKeyPath(ctx.dirs);
  if (ctx.out.json)
    ctx.out.jsonLine({
      loggedIn: true,
      serviceUrl,
      orgId: options.org,
      keyName: result.keyName,
      role: result.role,
      credentialsFile: path,
    });
  else {
    ctx.out.line(
      t('cli:login.done', {
        org: options.org,
        url: serviceUrl,
        hasKeyName: result.keyName ? 'yes' : 'no',
        keyName: result.keyName ?? '',
        hasRole: result.role ? 'yes' : 'no',
        role: result.role ?? '',
        path,
      }),
    );
  }
  return EXIT.ok;
}

export async function logout(ctx: CliContext): Promise<number> {
  const current = await ctx.login().catch(() => undefined);
  // The key goes with the login: logged out means no key left on this computer for it. Without a
  // service login nothing is touched (the app may have chosen the local workspace).
  const removed = current ? await ctx.loginStore().forget(current) : false;
  let waiting = 0;
  if (current) {
    waiting = (await everyEntry(ctx)).filter(
      (e) => e.serviceUrl === current.serviceUrl && e.orgId === current.orgId && e.state === 'pending',
    ).length;
  }
  if (ctx.out.json) ctx.out.jsonLine({ loggedOut: removed, pendingConfirmations: waiting });
  else {
    ctx.out.line(
      removed
        ? current
          ? t('cli:logout.loggedOutOf', { org: current.orgId, url: current.serviceUrl })
          : t('cli:logout.loggedOut')
        : t('cli:logout.notLoggedIn'),
    );
    if (waiting > 0) ctx.out.note(t('cli:logout.waiting', { count: waiting }));
  }
  return EXIT.ok;
}

export async function status(ctx: CliContext): Promise<number> {
  const current = await ctx.login();
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
