import { isIPv4 } from 'node:net';
import { rootKeyFingerprint } from '../../domain/files/config-file-signature';
import { createServiceClient, type ServiceClient } from '../cloud';
import { canonicalServiceUrl, serviceKey, ServiceUrlError } from '../../domain/service-url';
import { CoreError, type Capability, type SessionView } from '../../contract/index';
import { capabilitiesOf } from './capabilities';
import type { CoreLog } from '../engine/core-log';
import { toCoreError } from './errors';
import type { EventHub } from '../engine/event-hub';
import { LOCAL_WORKSPACE_SERVICE, type LocalWorkspace, type LocalWorkspaceStarter } from './local-workspace';
import type { Account } from '../engine/account';
import type { SecretStore } from '../../platform/secret-store';
import type { SettingsFile } from './settings-file';
import { LoginStore } from './login-store';

export type { Account } from '../engine/account';

export type ClientFactory = (options: { baseUrl: string; orgId: string; apiKey: string }) => ServiceClient;

export interface AccountSessionDeps {
  settings: SettingsFile;
  secrets: SecretStore;
  log: CoreLog;
  events: EventHub;
  startLocalWorkspace: LocalWorkspaceStarter;
  createClient?: ClientFactory;
}

/** The canonical URL of the service signed in to, or INVALID_INPUT saying what to write instead. */
function serviceUrlOf(written: string): string {
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
 * Sign-in, sign-out and the local workspace. A key is accepted only after the service's validate
 * operation says it belongs to the organization; it is then kept in memory (and, when asked, in
 * the login store the CLI shares: login-store.ts) and used by the API client only.
 */
export class AccountSession {
  private account: Account | null = null;
  private workspace: LocalWorkspace | null = null;
  private workspaceStarting: Promise<LocalWorkspace> | null = null;
  private workspaceClient: ServiceClient | undefined;
  private readonly createClient: ClientFactory;
  private readonly listeners = new Set<(account: Account | null) => void>();
  private readonly logins: LoginStore;

  constructor(private readonly deps: AccountSessionDeps) {
    this.createClient = deps.createClient ?? ((options) => createServiceClient(options));
    this.logins = new LoginStore(deps.settings, deps.secrets);
  }

  current(): Account | null {
    return this.account;
  }

  /** The account, or a NOT_SIGNED_IN / NOT_ALLOWED error the renderer shows as is. */
  require(capability?: Capability): Account {
    const account = this.account;
    if (!account) throw new CoreError('NOT_SIGNED_IN', 'Sign in first, or use the local workspace.');
    if (capability) {
      const state = capabilitiesOf(account.role)[capability];
      if (!state.allowed) throw new CoreError('NOT_ALLOWED', state.reason, [], 403);
    }
    return account;
  }

  onChange(listener: (account: Account | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async view(): Promise<SessionView> {
    const account = this.account;
    if (!account) {
      const settings = await this.deps.settings.read();
      return { status: 'signedOut', lastServiceUrl: settings.lastServiceUrl, lastOrgId: settings.lastOrgId };
    }
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

  async signIn(input: { serviceUrl: string; orgId: string; apiKey: string; remember: boolean }): Promise<SessionView> {
    const serviceUrl = serviceUrlOf(input.serviceUrl);
    this.deps.log.addSecret(input.apiKey);
    if (isPlainHttpOverNetwork(serviceUrl)) {
      const message = `Not signing in at ${serviceUrl}: over http:// the API key would cross the network unencrypted, readable by anyone on the way. Use the service's https:// address (plain http:// is only for this computer: localhost, 127.0.0.1, ::1).`;
      throw new CoreError('INVALID_INPUT', message, [{ code: 'INSECURE_SERVICE_URL', field: 'serviceUrl', message }]);
    }
    const validated = await this.validate(serviceUrl, input.orgId, input.apiKey);
    let remembered = false;
    if (input.remember) {
      try {
        const { keyName, role } = validated;
        await this.logins.save({ serviceUrl, orgId: input.orgId, apiKey: input.apiKey, keyName, role });
        remembered = true;
      } catch (err) {
        this.deps.log.warn('session', `The key is not remembered: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (!remembered) await this.logins.saveWithoutKey(serviceUrl, input.orgId);
    await this.setAccount({ kind: 'service', serviceUrl, orgId: input.orgId, remembered, ...validated });
    this.deps.log.info(
      'session',
      `Signed in to ${input.orgId} at ${serviceUrl} as ${validated.keyName ?? 'a key'} (${validated.role}).`,
    );
    return this.view();
  }

  /**
   * Works in the local workspace. `remember: false` for a host's own fallback (web mode when it
   * could not sign in again): the login a person chose, which the CLI shares, stays the one
   * resumed, so a service down at one start does not move the next CLI command to the workspace.
   */
  async useLocalWorkspace(options: { remember?: boolean } = {}): Promise<SessionView> {
    const workspace = await this.ensureWorkspace();
    this.deps.log.addSecret(workspace.apiKey);
    const validated = await this.validate(workspace.serviceUrl, workspace.orgId, workspace.apiKey);
    if (options.remember !== false) await this.deps.settings.update({ resume: { kind: 'local' } });
    await this.setAccount({
      kind: 'local',
      serviceUrl: workspace.serviceUrl,
      orgId: workspace.orgId,
      remembered: true,
      ...validated,
      organizationName: workspace.organizationName,
      region: workspace.region,
    });
    this.deps.log.info(
      'session',
      `Using the local workspace (${workspace.organizationName}, service at ${workspace.serviceUrl}).`,
    );
    return this.view();
  }

  async signOut(forget: boolean): Promise<SessionView> {
    const account = this.account;
    await this.logins.forget(account && forget && account.kind === 'service' ? account : undefined);
    await this.setAccount(null);
    if (account) this.deps.log.info('session', `Signed out of ${account.orgId}.`);
    return this.view();
  }

  /** At start: sign in again as last time, if the key was remembered and is still valid. */
  async resume(): Promise<void> {
    const { resume } = await this.deps.settings.read();
    if (!resume) return;
    try {
      if (resume.kind === 'local') {
        await this.useLocalWorkspace();
        return;
      }
      // The app's or the CLI's login: they share the store (docs/decisions.md, D-one-login-store).
      const saved = await this.logins.read();
      if (!saved) return;
      await this.signIn({ serviceUrl: saved.serviceUrl, orgId: saved.orgId, apiKey: saved.apiKey, remember: true });
    } catch (err) {
      this.deps.log.warn(
        'session',
        `Could not resume the last session: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  /** A client holding a key for that service and organization, for the outbox; undefined when none. */
  clientFor(serviceUrl: string, orgId: string): ServiceClient | undefined {
    const account = this.account;
    if (serviceUrl === LOCAL_WORKSPACE_SERVICE) {
      if (account?.kind === 'local' && account.orgId === orgId) return account.client;
      // Signed in elsewhere now, but the workspace runs: its confirmations can still go.
      const workspace = this.workspace;
      if (!workspace || workspace.orgId !== orgId) return undefined;
      this.workspaceClient ??= this.createClient({
        baseUrl: workspace.serviceUrl,
        orgId: workspace.orgId,
        apiKey: workspace.apiKey,
      });
      return this.workspaceClient;
    }
    if (
      account &&
      account.kind === 'service' &&
      account.orgId === orgId &&
      serviceKey(account.serviceUrl) === serviceKey(serviceUrl)
    )
      return account.client;
    return undefined;
  }

  /** The embedded service, when the local workspace has been started. */
  localWorkspace(): LocalWorkspace | null {
    return this.workspace;
  }

  async ensureWorkspace(): Promise<LocalWorkspace> {
    if (this.workspace) return this.workspace;
    this.workspaceStarting ??= this.deps.startLocalWorkspace().then((w) => {
      this.workspace = w;
      this.deps.log.info('workspace', `Local workspace service listening at ${w.serviceUrl}.`);
      return w;
    });
    try {
      return await this.workspaceStarting;
    } catch (err) {
      this.workspaceStarting = null;
      throw new CoreError(
        'INTERNAL',
        `The local workspace could not start: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  async close(): Promise<void> {
    await this.workspace?.close();
    this.workspace = null;
  }

  private async validate(
    serviceUrl: string,
    orgId: string,
    apiKey: string,
  ): Promise<Omit<Account, 'kind' | 'serviceUrl' | 'orgId' | 'remembered'>> {
    const client = this.createClient({ baseUrl: serviceUrl, orgId, apiKey });
    let result;
    try {
      result = await client.apiKeys.validate(apiKey, { retry: false });
    } catch (err) {
      const core = toCoreError(err);
      if (core.code === 'AUTH_FAILED' || core.code === 'NOT_ALLOWED') {
        throw new CoreError(
          'AUTH_FAILED',
          `The service at ${serviceUrl} does not accept this key for organization ${orgId}. Check the organization and the key.`,
          [],
          core.httpStatus,
        );
      }
      if (core.code === 'SERVICE_UNREACHABLE')
        throw new CoreError('SERVICE_UNREACHABLE', `Cannot reach the service at ${serviceUrl}: ${core.message}`);
      throw core;
    }
    if (!result.valid || !result.role || (result.organizationId !== null && result.organizationId !== orgId)) {
      throw new CoreError('AUTH_FAILED', `The key is not valid for organization ${orgId} at ${serviceUrl}.`);
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

  private async setAccount(account: Account | null): Promise<void> {
    this.account = account;
    for (const listener of this.listeners) listener(account);
    this.deps.events.emit('session.changed', await this.view());
  }
}
