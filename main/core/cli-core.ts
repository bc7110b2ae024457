import type { ServiceClient } from '../cloud';
import type { BleCentral, LinkFactoryDeps } from '../devices';
import {
  ConfigFileStore,
  SigningKeyStore,
  createDeviceConnector,
  createDeviceFinder,
  createJobsEngine,
  provisioningPaths,
  type JobsEngine,
  type ProvisioningAccount,
  type ReconnectPolicy,
} from '../engine/jobs';
import {
  parseChannelInput,
  type ChannelInput,
  type ChannelResult,
  type EventStreams,
  type JobsChannel,
  type OutboxChannel,
  type CacheChannel,
  type StationChannel,
  type ReadbackChannel,
  type DownloadChannel,
  type PackageFileChannel,
  type LedgerChannel,
  type AccountabilityChannel,
} from '../../contract/index';
import { planConfigurationChange } from './configuration-changes';
import type { QuarantinedFile } from '../../platform/quarantine';
import { jobsHandlers } from './handlers/jobs';
import { outboxHandlers } from './handlers/outbox';
import { cacheHandlers } from './handlers/cache';
import { accountabilityHandlers } from './handlers/accountability';
import { stationHandlers } from './handlers/station';
import { LiveDeviceList } from '../devices/discovery';
import { CoreLog } from '../engine/core-log';
import { ledgerHandlers } from './handlers/ledger';
import { EventHub } from '../engine/event-hub';
import { readbackHandlers } from './handlers/readback';
import { downloadHandlers } from './handlers/downloads';
import { zopfliSelfTest } from '../engine/cache/zopfli-self-test';
import { packageFileHandlers } from './handlers/packages';
import type { OutboxEvent } from '../engine/outbox/outbox';
import type { HandlerGroup } from './handlers/types';
import { savedLoginHandlers, type SavedLoginChannel } from './handlers/saved-login';
import type { LoginStore } from './login-store';

export type { ProvisioningAccount, ReconnectPolicy };

/** The channels a command-line run calls: the jobs, and what an apply would change (as the Workbench asks it). */
export type CliChannel =
  | JobsChannel
  | OutboxChannel
  | CacheChannel
  | StationChannel
  | ReadbackChannel
  | DownloadChannel
  | PackageFileChannel
  | LedgerChannel
  | AccountabilityChannel
  | 'workbench.configurationChanges'
  | 'support.cacheSelfTest'
  | SavedLoginChannel;

/**
 * The streams a command-line host subscribes to: the jobs' whole records, as it prints them; the
 * station's events; the core's log lines (here only what goes wrong beside a result: the station's
 * and its device list's warnings).
 */
export type CliCoreStream =
  'jobs.changed' | 'jobs.finished' | 'station.event' | 'logs.line' | 'functionTest.ready' | 'ledger.verifyProgress';

export interface CliCoreOptions {
  /** Root of the firmware cache, outbox, intents, ledger and per-account files. */
  dataDir: string;
  /** The account the run works for, once the host has settled it; undefined before. */
  account: () => ProvisioningAccount | undefined;
  /** The account, settled by the host when a channel first needs the service (readiness, the change view). */
  settleAccount: () => Promise<ProvisioningAccount & { client: ServiceClient; label?: string }>;
  /** A client for an outbox entry's service and organization, when the key for it is at hand. */
  clientFor: (serviceUrl: string, orgId: string) => ServiceClient | undefined;
  /**
   * Opens a client for an outbox entry's service and organization when the host holds a key for
   * it (the CLI: its login, or the local workspace, started for it); asked before the outbox is
   * sent, for each service and organization its entries name.
   */
  openClient?: (serviceUrl: string, orgId: string) => Promise<ServiceClient | undefined>;
  /** What the outbox has to say besides a damaged file (said through onQuarantine): a file it cannot read. */
  onOutboxEvent?: (event: OutboxEvent) => void;
  linkDeps: LinkFactoryDeps;
  portGlobs: readonly string[];
  bleCentral?: () => Promise<BleCentral>;
  concurrency?: number;
  reconnect?: Partial<ReconnectPolicy>;
  /** How long a connection waits for a device that went away. */
  reconnectTimeoutMs?: number;
  onQuarantine: (file: QuarantinedFile) => void;
  /**
   * The login store the app keeps its login in, for the session channels (sign-in, the saved
   * login, sign-out); the host moves a login an earlier version left into it first. Without it
   * the session channels are refused.
   */
  loginStore?: () => Promise<LoginStore>;
  /**
   * The host's saved login, if any: whose kept list of enrolled workstation keys a ledger check
   * that asks no service reads (`ledger verify --local`); who acts in what the ledger records (its
   * key's name); and, when there is one, the settled account is the login's, for which an imported
   * work package is kept (without one, a package is kept offline for its origin).
   */
  savedLogin?: () => Promise<{ serviceUrl: string; orgId: string; keyName: string | null } | undefined>;
}

/**
 * The core as a command-line run uses it: no session, no device list kept live, one account the
 * host settled (a login, a work package or the local workspace). Every command goes through the
 * contract's channels (validated as a bridge validates them) and follows the events, as the app
 * does; nothing of the engine is handed out (docs/architecture.md, "The CLI").
 */
export interface CliCore {
  invoke<C extends CliChannel>(channel: C, input: ChannelInput<C>): Promise<ChannelResult<C>>;
  subscribe<S extends CliCoreStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void;
  /** Confirms jobs an earlier run left unfinished (once the account is settled); how many. */
  recoverInterrupted(): Promise<number>;
  close(): Promise<void>;
}

export function createCliCore(options: CliCoreOptions): CliCore {
  const finder = createDeviceFinder({
    serial: { portGlobs: [...options.portGlobs] },
    ...(options.bleCentral ? { ble: { central: options.bleCentral } } : {}),
    linkDeps: options.linkDeps,
  });
  const connector = createDeviceConnector({
    linkDeps: options.linkDeps,
    finder,
    reconnectTimeoutMs: options.reconnectTimeoutMs,
  });
  // Clients the host opened for the outbox's services (openClient), beside the settled account's.
  const opened = new Map<string, ServiceClient | undefined>();
  const addressKey = (serviceUrl: string, orgId: string) => `${serviceUrl}\u0000${orgId}`;
  const clientFor = (serviceUrl: string, orgId: string): ServiceClient | undefined =>
    options.clientFor(serviceUrl, orgId) ?? opened.get(addressKey(serviceUrl, orgId));
  /** Where the settled account's kept files are (its configuration files, its signing keys). */
  const accountDirs = (account: { serviceUrl: string; orgId: string }) =>
    provisioningPaths(options.dataDir).account(account.serviceUrl, account.orgId);
  let engineInstance: JobsEngine | undefined;
  const engine = (): JobsEngine =>
    (engineInstance ??= createJobsEngine({
      dataDir: options.dataDir,
      account: options.account,
      clientFor,
      onOutboxEvent: options.onOutboxEvent,
      connector,
      finder,
      onQuarantine: options.onQuarantine,
      concurrency: options.concurrency,
      reconnect: options.reconnect,
    }));
  // Made when first asked for, with the engine: a run that never reads the outbox opens neither.
  let outboxGroup: HandlerGroup<OutboxChannel> | undefined;
  const outbox = (): HandlerGroup<OutboxChannel> =>
    (outboxGroup ??= outboxHandlers(engine().outbox, {
      hasClient: (serviceUrl, orgId) => clientFor(serviceUrl, orgId) !== undefined,
      open: async (addresses) => {
        const { openClient } = options;
        if (!openClient) return;
        for (const { serviceUrl, orgId } of addresses) {
          const key = addressKey(serviceUrl, orgId);
          if (!opened.has(key)) opened.set(key, await openClient(serviceUrl, orgId));
        }
      },
    }));
  // The station's, the function test's and the ledger check's events, and the core's log lines
  // (only warnings here: the station's and its device list's), for the host to subscribe to.
  const events = new EventHub();
  const log = new CoreLog(events);
  /**
   * The settled account as the ledger files it: the saved login's key names who acted (the app's
   * session names its key the same way), and a label for people.
   */
  const settledAccount = async () => {
    const account = await options.settleAccount();
    const actor = (await options.savedLogin?.())?.keyName;
    return {
      client: account.client,
      serviceUrl: account.serviceUrl,
      orgId: account.orgId,
      ...(actor ? { actor } : {}),
      label: account.label ?? `organization ${account.orgId} at ${account.serviceUrl}`,
    };
  };
  // The function test and the commissioning report: the engine's ledger and cache, the settled
  // account, the devices the finder sees; the watch's readiness as an event the host says.
  let accountabilityGroup: HandlerGroup<AccountabilityChannel> | undefined;
  const accountability = (): HandlerGroup<AccountabilityChannel> =>
    (accountabilityGroup ??= accountabilityHandlers({
      account: settledAccount,
      ledger: () => engine().ledger,
      cache: () => engine().cache,
      workstation: () => engine().workstation(),
      attached: async () =>
        (await finder.list()).map((device) => ({
          serialNumber: device.identity?.serialNumber ?? null,
          link: device.link,
        })),
      linkDeps: options.linkDeps,
      // The command line names a link with --link, records a script's test on what was observed
      // and says whether the service took the entry.
      namedLinks: true,
      verdictWithoutTechnician: true,
      waitForSend: true,
      onReady: (ready) => events.emit('functionTest.ready', ready),
    }));
  // The firmware cache and the settled account's kept configuration files, with the engine.
  let cacheGroup: HandlerGroup<CacheChannel> | undefined;
  const cache = (): HandlerGroup<CacheChannel> =>
    (cacheGroup ??= cacheHandlers({
      cache: engine().cache,
      configFiles: () => engine().configFiles(),
      client: async () => (await options.settleAccount()).client,
    }));
  // The ledger's channels, with the engine's ledger; a check's progress as events the host draws.
  let ledgerGroup: HandlerGroup<LedgerChannel> | undefined;
  const ledger = (): HandlerGroup<LedgerChannel> =>
    (ledgerGroup ??= ledgerHandlers({
      ledger: () => engine().ledger,
      workstation: () => engine().workstation(),
      dataDir: options.dataDir,
      account: settledAccount,
      // A check that asks no service reads the list of keys kept for the saved login.
      keptKeysFor: async () => {
        const login = await options.savedLogin?.();
        return login && { serviceUrl: login.serviceUrl, orgId: login.orgId };
      },
      onProgress: (progress) => events.emit('ledger.verifyProgress', progress),
    }));
  // The station (`provisioner station`): the settled account, the engine, a device list of its own
  // for the shift; the commissioning report after the stop, as the CLI has always said it.
  let stationGroup: ReturnType<typeof stationHandlers> | undefined;
  const station = () =>
    (stationGroup ??= stationHandlers({
      // The saved login's key signs the shift in; the run works for that login whenever there is one.
      account: settledAccount,
      openDevices: async (isBusy) => {
        const list = new LiveDeviceList({
          serial: { portGlobs: [...options.portGlobs] },
          ...(options.bleCentral ? { ble: { central: options.bleCentral } } : {}),
          linkDeps: options.linkDeps,
          // Plugging is noticed at once through the port directories' watch; the poll is the fallback.
          pollIntervalMs: 500,
          ipPollIntervalMs: 2000,
          isBusy,
          onWarning: (message) => log.warn('devices', message),
        });
        await list.start();
        return { devices: list, close: () => list.stop() };
      },
      jobs: engine(),
      dataDir: options.dataDir,
      emit: (event) => events.emit('station.event', event),
      warn: (message) => log.warn('station', message),
      reportPathAllowed: true,
      commissioningAfterStop: true,
    }));
  const handlers: HandlerGroup<CliChannel> = {
    ...jobsHandlers({
      engine: {
        start: (requests) => engine().start(requests),
        wait: (jobId) => engine().wait(jobId),
        cancel: (jobId) => engine().cancel(jobId),
      },
      client: async () => (await options.settleAccount()).client,
      attached: async (extraLinks) =>
        (await finder.list({ extraLinks })).map((device) => ({
          link: device.link,
          serialNumber: device.identity?.serialNumber ?? null,
          error: device.error,
        })),
    }),
    // The outbox the jobs fill, sent here only when a command asks (nothing sends in the background).
    'outbox.get': (input) => outbox()['outbox.get'](input),
    'outbox.sendNow': (input) => outbox()['outbox.sendNow'](input),
    'outbox.records': (input) => outbox()['outbox.records'](input),
    'outbox.sync': (input) => outbox()['outbox.sync'](input),
    'outbox.pending': (input) => outbox()['outbox.pending'](input),
    // The cache's kept configuration files are the settled account's: the host settles it first.
    'cache.contents': (input) => cache()['cache.contents'](input),
    'cache.prefetch': (input) => cache()['cache.prefetch'](input),
    'cache.prune': (input) => cache()['cache.prune'](input),
    'functionTest.observe': (input) => accountability()['functionTest.observe'](input),
    'functionTest.stop': (input) => accountability()['functionTest.stop'](input),
    'functionTest.record': (input) => accountability()['functionTest.record'](input),
    'functionTest.due': (input) => accountability()['functionTest.due'](input),
    'reports.commissioning': (input) => accountability()['reports.commissioning'](input),
    // One station per run, on the jobs of the settled account (the host settles it first).
    'station.view': (input) => station().handlers['station.view'](input),
    'station.parameters': (input) => station().handlers['station.parameters'](input),
    'station.start': (input) => station().handlers['station.start'](input),
    'station.stop': (input) => station().handlers['station.stop'](input),
    // Files for a person to carry: checked, then kept in the engine's cache and the settled account's
    // stores (made here as the change view's are).
    ...downloadHandlers({
      cache: () => engine().cache,
      account: async () => {
        const account = await options.settleAccount();
        const dirs = accountDirs(account);
        return {
          client: account.client,
          orgId: account.orgId,
          stores: () => ({
            signingKeys: new SigningKeyStore({ dir: dirs.keys }),
            configFiles: new ConfigFileStore({ dir: dirs.configFiles }),
          }),
        };
      },
    }),
    // The saved login, by the app's sign-in policy; signing in needs no settled account (it comes before one).
    ...savedLoginHandlers({
      logins: async () => {
        if (!options.loginStore) throw new Error('This run keeps no login: the host gave its core no login store.');
        return options.loginStore();
      },
      log,
    }),
    // Needs no account: the install's zopfli worker, tried on a built-in sample.
    'support.cacheSelfTest': () => zopfliSelfTest(),
    // Work packages and the confirmations carried by hand, read and written by the host as files.
    ...packageFileHandlers({
      dataDir: options.dataDir,
      account: options.settleAccount,
      // A package is kept for the login's account when there is a saved login (the run then works for it).
      login: async () => ((await options.savedLogin?.()) ? options.settleAccount() : undefined),
      ledger: () => engine().ledger,
      workstation: () => engine().workstation(),
      onQuarantine: options.onQuarantine,
    }),
    // Devices this run finds and reads back itself (`device list`, `device verify`): the finder's
    // last listing, judged and recorded in this workstation's ledger (the engine's).
    ...readbackHandlers({
      finder,
      connector,
      settleAccount: options.settleAccount,
      configFiles: (account) =>
        new ConfigFileStore({
          dir: accountDirs(account).configFiles,
          onQuarantine: options.onQuarantine,
        }),
      engine,
    }),
    // This workstation's ledger (the engine's): checked, sent, its key enrolled or another's revoked.
    'ledger.verify': (input) => ledger()['ledger.verify'](input),
    'ledger.enrol': (input) => ledger()['ledger.enrol'](input),
    'ledger.revoke': (input) => ledger()['ledger.revoke'](input),
    'ledger.send': (input) => ledger()['ledger.send'](input),
    // The account's kept files, as the engine keeps them; nothing is applied or kept here.
    'workbench.configurationChanges': async (input) => {
      const account = await options.settleAccount();
      const dir = accountDirs(account).configFiles;
      return planConfigurationChange({
        client: account.client,
        store: new ConfigFileStore({ dir }),
        serialNumber: input.serialNumber,
      });
    },
  };
  return {
    async invoke(channel, input) {
      const handler = handlers[channel] as (parsed: unknown) => Promise<ChannelResult<typeof channel>>;
      return handler(parseChannelInput(channel, input));
    },
    subscribe(stream, listener) {
      if (stream === 'jobs.changed')
        return engine().onProgress(listener as (payload: EventStreams['jobs.changed']) => void);
      if (stream === 'jobs.finished')
        return engine().onFinished(listener as (payload: EventStreams['jobs.finished']) => void);
      return events.subscribe(stream, listener);
    },
    recoverInterrupted: () => engine().recoverInterrupted(),
    async close() {
      await stationGroup?.close();
      await engineInstance?.close();
    },
  };
}
