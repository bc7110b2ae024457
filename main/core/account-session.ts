import { createServiceClient, type ServiceClient } from '../cloud';
import { serviceKey } from '../../domain/service-url';
import { CoreError, type Capability, type SessionView } from '../../contract/index';
import { capabilitiesOf } from './capabilities';
import type { CoreLog } from '../engine/core-log';
import { signedInView, signInWithKey, validateKey, type ClientFactory, type KeySignInRequest } from './key-sign-in';
import type { EventHub } from '../engine/event-hub';
import { LOCAL_WORKSPACE_SERVICE, type LocalWorkspace, type LocalWorkspaceStarter } from './local-workspace';
import type { Account } from '../engine/account';
import type { SecretStore } from '../../platform/secret-store';
import type { SettingsFile } from './settings-file';
import { LoginStore } from './login-store';

export type { Account } from '../engine/account';

export type { ClientFactory } from './key-sign-in';

export interface AccountSessionDeps {
  settings: SettingsFile;
  secrets: SecretStore;
  log: CoreLog;
  events: EventHub;
  startLocalWorkspace: LocalWorkspaceStarter;
  createClient?: ClientFactory;
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
    return signedInView(account);
  }

  /**
   * Signs in with a key by the one policy the CLI's core follows too (key-sign-in.ts). The app
   * never sends a key over plain http:// to another computer: `allowPlainHttp` is not passed on.
   */
  async signIn(input: Omit<KeySignInRequest, 'allowPlainHttp'>): Promise<SessionView> {
    const signedIn = await signInWithKey(
      { createClient: this.createClient, logins: this.logins, log: this.deps.log, whenNotKept: 'warn' },
      { serviceUrl: input.serviceUrl, orgId: input.orgId, apiKey: input.apiKey, remember: input.remember },
    );
    const { serviceUrl, orgId, keyName, role } = signedIn;
    await this.setAccount({ kind: 'service', ...signedIn });
    this.deps.log.info('session', `Signed in to ${orgId} at ${serviceUrl} as ${keyName ?? 'a key'} (${role}).`);
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
    const validated = await validateKey(this.createClient, workspace.serviceUrl, workspace.orgId, workspace.apiKey);
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

  private async setAccount(account: Account | null): Promise<void> {
    this.account = account;
    for (const listener of this.listeners) listener(account);
    this.deps.events.emit('session.changed', await this.view());
  }
}
