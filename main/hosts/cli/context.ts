import { createServiceClient, type ServiceClient } from '../../cloud';
import { BleCentral, portGlobsFromEnv, systemBleCentral } from '../../devices';
import {
  createDeviceConnector,
  createDeviceFinder,
  createProvisioningService,
  type DeviceConnector,
  type DeviceFinder,
  type ProvisioningAccount,
  type ProvisioningService,
} from '../../app/jobs';
import { readCredentials, type Credentials } from './credentials';
import { cliDirs, type CliDirs } from '../../../platform/data-dirs';
import type { CliDeps, CliIo } from './io';
import type { LocalWorkspace } from './local-workspace';
import { LOCAL_WORKSPACE_SERVICE } from './local-workspace-name';
import { chooseMode, Output } from './output';

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
  concurrency?: number;
  /** Seconds to wait for a device that went away (pulled cable, restart). */
  reconnectTimeout?: number;
}

/** Who the CLI works for in this run: the logged-in service, or the local workspace. */
export interface CliAccount extends ProvisioningAccount {
  client: ServiceClient;
  /** For people: "organization demo at https://…" or "the local workspace". */
  label: string;
  local: boolean;
}

/**
 * Everything a command may need, made on first use and closed once at the end: the login or the
 * local workspace, the device connector and finder, the provisioning core.
 */
export class CliContext {
  readonly dirs: CliDirs;
  readonly out: Output;
  private credentials: Promise<Credentials | undefined> | undefined;
  private workspace: Promise<LocalWorkspace> | undefined;
  private accountPromise: Promise<CliAccount> | undefined;
  private provisioningService: ProvisioningService | undefined;
  private finderInstance: DeviceFinder | undefined;
  private connectorInstance: DeviceConnector | undefined;
  private simulatedCentral: Promise<BleCentral> | undefined;

  constructor(
    readonly io: CliIo,
    readonly deps: CliDeps,
    readonly options: GlobalOptions,
  ) {
    this.dirs = cliDirs(io.env, options.dataDir);
    this.out = new Output(io, chooseMode(io, options.json ?? false));
  }

  login(): Promise<Credentials | undefined> {
    this.credentials ??= readCredentials(this.dirs.config);
    return this.credentials;
  }

  localWorkspace(): Promise<LocalWorkspace> {
    // Loaded only when used: the embedded service (database, HTTP server) is heavy to load.
    this.workspace ??= import('./local-workspace').then(({ openLocalWorkspace }) => openLocalWorkspace(this.dirs.data));
    return this.workspace;
  }

  account(): Promise<CliAccount> {
    this.accountPromise ??= (async (): Promise<CliAccount> => {
      const login = await this.login();
      if (login) {
        const client = createServiceClient({ baseUrl: login.serviceUrl, orgId: login.orgId, apiKey: login.apiKey });
        return { client, serviceUrl: login.serviceUrl, orgId: login.orgId, label: `organization ${login.orgId} at ${login.serviceUrl}`, local: false };
      }
      const workspace = await this.localWorkspace();
      return { client: workspace.client, serviceUrl: LOCAL_WORKSPACE_SERVICE, orgId: workspace.orgId, label: 'the local workspace', local: true };
    })();
    return this.accountPromise;
  }

  /**
   * The BLE central: the one tests pass, the simulator's BLE served from another process
   * (PROVISIONER_SIMULATED_BLE=<endpoint from its JSON line>), or the computer's adapter.
   */
  private bleCentral(): (() => Promise<BleCentral>) | undefined {
    if (this.deps.bleCentral) return this.deps.bleCentral;
    const endpoint = this.io.env.PROVISIONER_SIMULATED_BLE;
    if (endpoint) {
      this.simulatedCentral ??= import('../../../simulator/ble/bridge-client').then(({ connectSimulatedBleBindings }) =>
        BleCentral.create(connectSimulatedBleBindings(endpoint)),
      );
      const central = this.simulatedCentral;
      return () => central;
    }
    return this.io.env.PROVISIONER_NO_BLE ? undefined : systemBleCentral;
  }

  finder(): DeviceFinder {
    this.finderInstance ??= createDeviceFinder({
      linkDeps: this.linkDeps(),
      bleCentral: this.bleCentral(),
      portGlobs: portGlobsFromEnv(this.io.env),
    });
    return this.finderInstance;
  }

  connector(): DeviceConnector {
    this.connectorInstance ??= createDeviceConnector({
      linkDeps: this.linkDeps(),
      finder: this.finder(),
      reconnectTimeoutMs: this.options.reconnectTimeout !== undefined ? this.options.reconnectTimeout * 1000 : this.deps.reconnectTimeoutMs,
    });
    return this.connectorInstance;
  }

  private linkDeps() {
    const bleCentral = this.bleCentral();
    return { ...this.deps.linkDeps, ...(bleCentral ? { bleCentral } : {}) };
  }

  /**
   * The provisioning core for this run, after confirming jobs an earlier run left unfinished.
   * Confirmations for another service than the current one wait in the outbox until that login.
   */
  async provisioning(): Promise<ProvisioningService> {
    if (this.provisioningService) return this.provisioningService;
    const account = await this.account();
    const login = await this.login();
    const service = createProvisioningService({
      dataDir: this.dirs.data,
      account: () => account,
      clientFor: (serviceUrl, orgId) => {
        if (serviceUrl === account.serviceUrl && orgId === account.orgId) return account.client;
        if (login && serviceUrl === login.serviceUrl && orgId === login.orgId) return account.client;
        return undefined;
      },
      connector: this.connector(),
      finder: this.finder(),
      concurrency: this.options.concurrency,
      reconnect: {
        ...this.deps.reconnect,
        ...(this.options.reconnectTimeout !== undefined ? { waitMs: this.options.reconnectTimeout * 1000 } : {}),
      },
    });
    this.provisioningService = service;
    const recovered = await service.recoverInterrupted();
    if (recovered > 0) this.out.note(`${recovered} job${recovered === 1 ? '' : 's'} of an earlier run did not finish; their failure is confirmed to the service`);
    return service;
  }

  /** A client for an outbox entry's service: the login's, or the local workspace's (started for it). */
  async clientFor(serviceUrl: string, orgId: string): Promise<ServiceClient | undefined> {
    if (serviceUrl === LOCAL_WORKSPACE_SERVICE) {
      const workspace = await this.localWorkspace();
      return orgId === workspace.orgId ? workspace.client : undefined;
    }
    const login = await this.login();
    if (login && login.serviceUrl === serviceUrl && login.orgId === orgId) {
      return createServiceClient({ baseUrl: login.serviceUrl, orgId: login.orgId, apiKey: login.apiKey });
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.provisioningService?.close().catch(() => undefined);
    if (this.workspace) await (await this.workspace.catch(() => undefined))?.close();
  }
}
