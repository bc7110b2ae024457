import { createServiceClient } from '../../../cloud';
import { rootKeyFingerprint } from '../../../../domain/files/config-file-signature';
import { provisioningPaths, SigningKeyStore } from '../../../app/jobs';
import { offlinePackageAccount, packagePaths } from '../../../app/packages';
import { Outbox } from '../../../app/outbox/outbox';
import { isPlainHttpOverNetwork } from '../../../app/session';
import type { CliContext } from '../context';
import { normalizeServiceUrl, readCredentials, removeCredentials, writeCredentials } from '../credentials';
import { CliError, EXIT } from '../errors';

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
 * not on the plant floor. The key is kept in a file only the user can read.
 */
export async function login(ctx: CliContext, options: LoginOptions, stdin: NodeJS.ReadableStream = process.stdin): Promise<number> {
  if (!options.url || !options.org) throw new CliError('login needs --url URL and --org ORGANIZATION (and --api-key KEY, $PROVISIONER_API_KEY or --api-key-stdin)', EXIT.usage);
  const apiKey = options.apiKeyStdin ? await readStdin(stdin) : (options.apiKey ?? ctx.io.env.PROVISIONER_API_KEY);
  if (!apiKey) throw new CliError('login needs the API key: --api-key KEY, $PROVISIONER_API_KEY, or --api-key-stdin', EXIT.usage);
  let serviceUrl: string;
  try {
    serviceUrl = normalizeServiceUrl(options.url);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message.replace(/\.$/, '') : String(error), EXIT.usage);
  }
  if (isPlainHttpOverNetwork(serviceUrl)) {
    if (!options.insecure) {
      throw new CliError(
        `not logging in at ${serviceUrl}: over http:// the API key would cross the network unencrypted; use the service's https:// address (or --insecure if you accept that anyone on the network path can read the key)`,
        EXIT.usage,
      );
    }
    const warning = `sending the API key to ${serviceUrl} over plain http (--insecure): anyone on the network path can read it and act with its role`;
    if (ctx.out.json) ctx.out.jsonLine({ event: 'warning', message: warning });
    else ctx.io.stderr.write(`warning: ${warning}\n`);
  }
  const client = createServiceClient({ baseUrl: serviceUrl, orgId: options.org, apiKey, retry: { attempts: 2 } });
  const result = await client.apiKeys.validate(apiKey);
  if (!result.valid) throw new CliError(`the service at ${serviceUrl} does not accept this API key; check it, or ask for a new one`);
  if (result.organizationId !== null && result.organizationId !== options.org) {
    throw new CliError(`this API key belongs to organization ${result.organizationId}, not ${options.org}; log in with --org ${result.organizationId}`);
  }
  const path = await writeCredentials(ctx.dirs.config, { serviceUrl, orgId: options.org, apiKey, keyName: result.keyName, role: result.role });
  if (ctx.out.json) ctx.out.jsonLine({ loggedIn: true, serviceUrl, orgId: options.org, keyName: result.keyName, role: result.role, credentialsFile: path });
  else ctx.out.line(`Logged in to organization ${options.org} at ${serviceUrl}${result.keyName ? ` with key ${result.keyName}` : ''}${result.role ? ` (role ${result.role})` : ''}. Key kept in ${path} (readable only by you).`);
  return EXIT.ok;
}

export async function logout(ctx: CliContext): Promise<number> {
  const current = await readCredentials(ctx.dirs.config).catch(() => undefined);
  const removed = await removeCredentials(ctx.dirs.config);
  let waiting = 0;
  if (current) {
    const outbox = new Outbox({ dir: provisioningPaths(ctx.dirs.data).outbox, sender: { send: () => Promise.reject(new Error('not sending')) }, onEvent: (event) => ctx.noteOutboxEvent(event) });
    waiting = (await outbox.list()).filter((e) => e.serviceUrl === current.serviceUrl && e.orgId === current.orgId && e.state === 'pending').length;
  }
  if (ctx.out.json) ctx.out.jsonLine({ loggedOut: removed, pendingConfirmations: waiting });
  else {
    ctx.out.line(removed ? `Logged out${current ? ` of organization ${current.orgId} at ${current.serviceUrl}` : ''}; commands now use the local workspace.` : 'Not logged in; commands use the local workspace.');
    if (waiting > 0) ctx.out.note(`${waiting} confirmation${waiting === 1 ? '' : 's'} for that service still wait${waiting === 1 ? 's' : ''} in the outbox; they are sent after you log in there again`);
  }
  return EXIT.ok;
}

/**
 * The fingerprint of the service root key this laptop trusts for an account: asked of the service
 * when signed in (and kept), else the one kept; undefined when it has none.
 */
async function rootFingerprintOf(ctx: CliContext, account: { serviceUrl: string; orgId: string }, ask: boolean): Promise<string | undefined> {
  const store = new SigningKeyStore({ dir: provisioningPaths(ctx.dirs.data).account(account.serviceUrl, account.orgId).keys, onQuarantine: ctx.noteQuarantined });
  // One quick try: status must not hang on a service that cannot be reached; the kept key answers then.
  const key = ask ? ((await store.get((await ctx.account()).client, { retry: false, timeoutMs: 5_000 }).catch(() => undefined))?.key ?? (await store.stored())) : await store.stored();
  return key ? rootKeyFingerprint(key.publicKeyPem) : undefined;
}

export async function status(ctx: CliContext): Promise<number> {
  const current = await ctx.login();
  const outbox = new Outbox({ dir: provisioningPaths(ctx.dirs.data).outbox, sender: { send: () => Promise.reject(new Error('not sending')) }, onEvent: (event) => ctx.noteOutboxEvent(event) });
  const pending = await outbox.pending();
  const offline = current ? undefined : await offlinePackageAccount(packagePaths(ctx.dirs.data).imported);
  const named = current ?? offline;
  // What a technician reads to a colleague whose laptop was never signed in (package import --root-fingerprint).
  const rootFingerprint = named ? ((await rootFingerprintOf(ctx, named, current !== undefined)) ?? null) : null;
  const account = current
    ? { kind: 'service', serviceUrl: current.serviceUrl, orgId: current.orgId, keyName: current.keyName, role: current.role, rootFingerprint }
    : offline
      ? { kind: 'offline-package', serviceUrl: offline.serviceUrl, orgId: offline.orgId, packageId: offline.packageId ?? null, rootFingerprint }
      : { kind: 'local-workspace' };
  if (ctx.out.json) {
    ctx.out.jsonLine({ account, dataDir: ctx.dirs.data, configDir: ctx.dirs.config, outbox: pending });
    return EXIT.ok;
  }
  if (current) ctx.out.line(`Logged in to organization ${current.orgId} at ${current.serviceUrl}${current.role ? ` (role ${current.role})` : ''}.`);
  else if (offline) {
    ctx.out.line(
      `Not signed in: working offline for organization ${offline.orgId} at ${offline.serviceUrl}, from a work package${offline.configurationName ? ` of "${offline.configurationName}"` : ''}. Nothing is sent anywhere until someone signs in (provisioner login).`,
    );
  } else ctx.out.line('Not logged in: commands use the local workspace (the embedded service with the demo organization).');
  if (rootFingerprint) ctx.out.line(`Root key fingerprint: ${rootFingerprint} (a laptop never signed in imports this service's work packages with --root-fingerprint ${rootFingerprint}).`);
  ctx.out.line(
    pending.count === 0
      ? 'Outbox: empty.'
      : `Outbox: ${pending.count} confirmation${pending.count === 1 ? '' : 's'} waiting since ${pending.oldestCreatedAt}.`,
  );
  if (pending.rejected > 0) ctx.out.line(`Outbox: ${pending.rejected} refused by the service (see provisioner outbox list).`);
  ctx.out.line(`Data: ${ctx.dirs.data}`);
  return EXIT.ok;
}
