import { join } from 'node:path';
import { createServiceClient, type ServiceClient } from '../../cloud';
import { BleCentral, portGlobsFromEnv, systemBleCentral, type LinkFactoryDeps } from '../../devices';
import {
  createCliCore,
  importedPackageAccount,
  LOCAL_WORKSPACE_SERVICE,
  LocalWorkspaceBusyError,
  openLocalWorkspace,
  type CliCore,
  type LoginStore,
  type OutboxEvent,
  type ProvisioningAccount,
  type SavedLogin,
} from '../../core/index';
import { cliLoginStore, keptKeyPath, readSavedLogin, type LegacyLoginOutcome } from './credentials';
import { prepareDataDirs, resolveDataDirs, type DataDirs } from '../../../platform/data-dirs';
import type { QuarantinedFile } from '../../../platform/quarantine';
import { CliError } from './errors';
import type { CliDeps, CliIo } from './io';
import { chooseMode, Output } from './output';
import { t } from './cli-language';

export interface GlobalOptions {
  dataDir?: string;
  json?: boolean;
  concurrency?: number;
  /** Seconds to wait for a device that went away (pulled cable, restart). */
  reconnectTimeout?: number;
  /** `--lang`: already applied before parsing (cli-language.ts); cliLanguage() answers it. */
  lang?: string;
}

/**
 * Who the CLI works for in this run: the logged-in service; on a laptop never signed in that
 * imported a work package, that package's organization, offline (a client that sends nothing); or
 * the local workspace.
 */
export interface CliAccount extends ProvisioningAccount {
  client: ServiceClient;
  /** For people: "organization demo at https://…" or "the local workspace". */
  label: string;
  local: boolean;
  /** Not signed in: working from a work package, talking to no service. */
  offline?: boolean;
}

/** The local workspace as the CLI uses it: for one command, through a client holding its key. */
export interface CliWorkspace {
  orgId: string;
  client: ServiceClient;
  close(): Promise<void>;
}

/** The embedded database takes one process at a time: a second command waits this long for the first. */
const WORKSPACE_LOCK_WAIT_MS = 60_000;

/**
 * Everything a command may need, made on first use and closed once at the end: the login or the
 * local workspace, the device connector and finder, the provisioning core.
 */
export class CliContext {
  readonly dirs: DataDirs;
  readonly out: Output;
  private savedLogin: Promise<SavedLogin | undefined> | undefined;
  private workspace: Promise<CliWorkspace> | undefined;
  private accountPromise: Promise<CliAccount> | undefined;
  private coreInstance: CliCore | undefined;
  private coreReady: Promise<CliCore> | undefined;
  /** The account (and the login) the core's jobs work for, once jobs() has settled them. */
  private settled: { account: CliAccount; login: { serviceUrl: string; orgId: string } | undefined } | undefined;
  private simulatedCentral: Promise<BleCentral> | undefined;

  constructor(
    readonly io: CliIo,
    readonly deps: CliDeps,
    readonly options: GlobalOptions,
  ) {
    this.dirs = resolveDataDirs(io.env, options.dataDir);
    this.out = new Output(io, chooseMode(io, options.json ?? false));
  }

  /**
   * Makes the data directories, moving an earlier web mode's ./.provisioner-data there once (a note
   * says so) and making private what others could read in them (a warning says so).
   */
  prepare(): Promise<void> {
    return prepareDataDirs(this.dirs, {
      cwd: this.io.cwd,
      note: (line) => this.io.stderr.write(`note: ${line}\n`),
      warn: (line) => this.io.stderr.write(`warning: ${line}\n`),
    });
  }

  /** Where the login is kept: the core's login store, which the app reads too (credentials.ts). */
  loginStore(): LoginStore {
    return cliLoginStore(this.dirs, this.noteQuarantined);
  }

  /** The saved login, read once per run; one an earlier version left in credentials.json is moved first. */
  login(): Promise<SavedLogin | undefined> {
    this.savedLogin ??= readSavedLogin(this.dirs, this.loginStore(), (outcome) => this.noteLegacyLogin(outcome));
    return this.savedLogin;
  }

  private noteLegacyLogin(outcome: LegacyLoginOutcome): void {
    this.out.note(
      outcome.kind === 'moved'
        ? t('cli:login.movedFromEarlierVersion', { from: outcome.from, to: keptKeyPath(this.dirs) })
        : t('cli:login.earlierVersionDropped', {
            from: outcome.from,
            org: outcome.kept.orgId,
            url: outcome.kept.serviceUrl,
          }),
    );
  }

  /**
   * The local workspace, for the length of this command: its own demo organization with the demo
   * fleet registered, so a newcomer can provision simulated devices at once.
   */
  localWorkspace(): Promise<CliWorkspace> {
    this.workspace ??= openLocalWorkspace({
      dir: join(this.dirs.data, 'local-workspace'),
      registerDemoFleet: true,
      lockWaitMs: WORKSPACE_LOCK_WAIT_MS,
    }).then(
      (workspace) => ({
        orgId: workspace.orgId,
        client: createServiceClient({
          baseUrl: workspace.serviceUrl,
          orgId: workspace.orgId,
          apiKey: workspace.apiKey,
        }),
        close: () => workspace.close(),
      }),
      (error: unknown) => {
        if (error instanceof LocalWorkspaceBusyError)
          throw new CliError(
            'another provisioner command is using the local workspace; wait for it to finish, or log in to a service',
          );
        throw error;
      },
    );
    return this.workspace;
  }

  account(): Promise<CliAccount> {
    this.accountPromise ??= (async (): Promise<CliAccount> => {
      const login = await this.login();
      if (login) {
        const client = createServiceClient({ baseUrl: login.serviceUrl, orgId: login.orgId, apiKey: login.apiKey });
        return {
          client,
          serviceUrl: login.serviceUrl,
          orgId: login.orgId,
          label: `organization ${login.orgId} at ${login.serviceUrl}`,
          local: false,
        };
      }
      const offline = await importedPackageAccount(this.dirs.data);
      if (offline) {
        const label = `organization ${offline.orgId} at ${offline.serviceUrl} (offline, from a work package; not signed in)`;
        return {
          client: offline.client,
          serviceUrl: offline.serviceUrl,
          orgId: offline.orgId,
          label,
          local: false,
          offline: true,
        };
      }
      const workspace = await this.localWorkspace();
      return {
        client: workspace.client,
        serviceUrl: LOCAL_WORKSPACE_SERVICE,
        orgId: workspace.orgId,
        label: 'the local workspace',
        local: true,
      };
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

  /**
   * The core for this run (main/core/cli-core.ts): the jobs channels, the device finder and
   * connector. Channels that need no account (target resolution) may be used at once; jobs wait
   * for jobs(), which settles the account first.
   */
  core(): CliCore {
    if (this.coreInstance) return this.coreInstance;
    const bleCentral = this.bleCentral();
    this.coreInstance = createCliCore({
      dataDir: this.dirs.data,
      account: () => this.settled?.account,
      settleAccount: () => this.account(),
      clientFor: (serviceUrl, orgId) => {
        if (!this.settled) return undefined;
        const { account, login } = this.settled;
        if (serviceUrl === account.serviceUrl && orgId === account.orgId) return account.client;
        if (login && serviceUrl === login.serviceUrl && orgId === login.orgId) return account.client;
        return undefined;
      },
      openClient: (serviceUrl, orgId) => this.clientFor(serviceUrl, orgId),
      // A damaged entry is said through onQuarantine; the rest of what the outbox has to say here.
      onOutboxEvent: (event) => {
        if (event.type !== 'quarantined') this.noteOutboxEvent(event);
      },
      linkDeps: this.linkDeps(),
      portGlobs: portGlobsFromEnv(this.io.env),
      ...(bleCentral ? { bleCentral } : {}),
      concurrency: this.options.concurrency,
      reconnect: {
        ...this.deps.reconnect,
        ...(this.options.reconnectTimeout !== undefined ? { waitMs: this.options.reconnectTimeout * 1000 } : {}),
      },
      reconnectTimeoutMs:
        this.options.reconnectTimeout !== undefined
          ? this.options.reconnectTimeout * 1000
          : this.deps.reconnectTimeoutMs,
      onQuarantine: this.noteQuarantined,
      // Whose ledger keys a check offline reads, who acts (its key's name), and whether a work
      // package is kept for the run's account (there is a login) or offline for its origin.
      savedLogin: () => this.login(),
      // The session channels keep the login here, once one an earlier version left is moved (a note says so).
      loginStore: async () => {
        await this.login();
        return this.loginStore();
      },
    });
    return this.coreInstance;
  }

  /**
   * What a command needs to open a link itself (as the function test does for each device it
   * watches): the tests' link factories and the BLE central this run uses, the simulator's
   * included. Without the central a `ble:` link would go to the computer's adapter.
   */
  linkDeps(): LinkFactoryDeps {
    const bleCentral = this.bleCentral();
    return { ...this.deps.linkDeps, ...(bleCentral ? { bleCentral } : {}) };
  }

  /**
   * The one way the CLI says that a damaged file was set aside (where it went, why). A bound
   * function, so a command hands it on as is: `openWorkstationLedger(dir, ctx.noteQuarantined)`.
   */
  readonly noteQuarantined = (file: QuarantinedFile): void => {
    this.out.note(t('cli:quarantine.notice', { from: file.from, reason: file.reason, path: file.path }));
  };

  /** What an outbox this run opens has to say to the person at the terminal. */
  noteOutboxEvent(event: OutboxEvent): void {
    if (event.type === 'quarantined') this.noteQuarantined(event.file);
    if (event.type === 'unreadable')
      this.out.note(`A confirmation file could not be read and was left where it is: ${event.path} (${event.reason}).`);
  }

  /**
   * The core's jobs for this run, once the account is settled and the jobs an earlier run left
   * unfinished are confirmed. Confirmations for another service than the current one wait in the
   * outbox until that login.
   */
  jobs(): Promise<CliCore> {
    this.coreReady ??= (async () => {
      const account = await this.account();
      const login = await this.login();
      this.settled = { account, login: login ? { serviceUrl: login.serviceUrl, orgId: login.orgId } : undefined };
      const core = this.core();
      const recovered = await core.recoverInterrupted();
      if (recovered > 0) this.out.note(t('cli:jobs.recovered', { count: recovered }));
      return core;
    })();
    return this.coreReady;
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
    await this.coreInstance?.close().catch(() => undefined);
    if (this.workspace) await (await this.workspace.catch(() => undefined))?.close();
  }
}

/** Runs a command with the context of this invocation; the exit code is kept for main. */
export type Runner = (run: (ctx: CliContext) => Promise<number>) => Promise<void>;
