import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLink, DeviceSession, identify, type LinkFactoryDeps } from '../devices';
import { FirmwareCache } from '../provisioning/firmware-cache';
import { Outbox } from '../provisioning/outbox';
import { clientConfirmationSender } from '../provisioning/outbox-sender';
import { simulatorDir } from '../../simulator/links/descriptor-file';
import {
  CoreError,
  type AppInfo,
  type Channel,
  type ChannelResult,
  type CoreHost,
  type EventStream,
  type EventStreams,
  type LogLine,
  type ParsedInput,
} from '../../preload/contract';
import { Bench } from './bench/bench';
import { combinedDiscovery, simulatorDescriptorDiscovery, usbSerialDiscovery, type DiscoveredLink, type LinkDiscovery } from './bench/link-discovery';
import { MinimalProvisioning } from './bench/minimal-provisioning';
import type { JobTarget, ProvisioningService } from './bench/provisioning-service';
import { CoreLog } from './core-log';
import { toCoreError } from './errors';
import { EventHub } from './event-hub';
import { configurationHandlers } from './handlers/configurations';
import { firmwareHandlers } from './handlers/firmware';
import { outboxHandlers, outboxView } from './handlers/outbox';
import { registryHandlers } from './handlers/registry';
import { supportReport } from './handlers/support';
import type { AllHandlers, Handler } from './handlers/types';
import { embeddedWorkspaceStarter, type LocalWorkspaceStarter } from './local-workspace';
import { SessionManager, type Account } from './session';
import type { SecretStore } from './secret-store';
import { SettingsFile } from './settings-file';

export type { SecretStore } from './secret-store';
export { FileSecretStore, MemorySecretStore } from './secret-store';
export type { LinkDiscovery, DiscoveredLink } from './bench/link-discovery';
export { staticDiscovery, simulatorDescriptorDiscovery, usbSerialDiscovery, combinedDiscovery, discoveredLink } from './bench/link-discovery';
export type { ProvisioningService, JobTarget } from './bench/provisioning-service';
export type { LocalWorkspace, LocalWorkspaceStarter } from './local-workspace';
export { embeddedWorkspaceStarter } from './local-workspace';

export interface CoreOptions {
  /** Where the core keeps its settings, outbox, firmware cache and the local workspace. */
  dataDir: string;
  secretStore: SecretStore;
  host: AppInfo['host'];
  appVersion?: string;
  /** Default: the embedded service with its data under `<dataDir>/workspace`. */
  startLocalWorkspace?: LocalWorkspaceStarter;
  /** Default: USB serial devices (product id 0xD101) and the simulator's announced ptys. */
  discovery?: LinkDiscovery;
  linkDeps?: LinkFactoryDeps;
  /** Stands in for the built-in minimal provisioning (e.g. the jobs engine of main/provisioning). */
  provisioning?: (deps: ProvisioningContext) => ProvisioningService;
  /** Sign in again as last time (remembered key or local workspace). Default true. */
  resume?: boolean;
  benchPollMs?: number;
  /** Each log line also goes here (e.g. stderr in web mode). */
  onLogLine?: (line: LogLine) => void;
}

/** What a replacement provisioning service gets from the core. */
export interface ProvisioningContext {
  account(): Account;
  cache: FirmwareCache;
  outbox: Outbox;
  log: CoreLog;
}

/** The core as a host runs it: the contract's CoreHost, plus shutdown. */
export interface Core extends CoreHost {
  readonly log: CoreLog;
  readonly session: SessionManager;
  close(): Promise<void>;
}

const IDENTIFY_TIMEOUT_MS = 5_000;

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Builds the core: session and API client, configurations and the organization's records, the
 * firmware cache, the confirmation outbox, the bench of attached devices and the jobs on them,
 * the log and the support report; all behind the contract of preload/contract.ts.
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const events = new EventHub();
  const log = new CoreLog(events, options.onLogLine);
  const appInfo: AppInfo = { appVersion: options.appVersion ?? packageVersion(), host: options.host, platform: `${process.platform}-${process.arch}`, nodeVersion: process.version };
  const settings = new SettingsFile(join(options.dataDir, 'settings.json'));
  const session = new SessionManager({
    settings,
    secrets: options.secretStore,
    log,
    events,
    startLocalWorkspace: options.startLocalWorkspace ?? embeddedWorkspaceStarter(join(options.dataDir, 'workspace')),
  });

  const cache = new FirmwareCache({
    dir: join(options.dataDir, 'firmware-cache'),
    onEvent: (event) => {
      if (event.type === 'evicted-corrupt') log.warn('cache', `Removed damaged firmware ${event.entry.deviceType} ${event.entry.version}: ${event.reason}`);
    },
  });

  let outboxChange: ReturnType<typeof setTimeout> | null = null;
  const outbox = new Outbox({
    dir: join(options.dataDir, 'outbox'),
    sender: clientConfirmationSender((serviceUrl, orgId) => session.clientFor(serviceUrl, orgId)),
    onEvent: (event) => {
      if (event.type === 'delivered') log.info('outbox', `Confirmed ${event.entry.kind} of ${event.entry.serialNumber} to the service.`);
      if (event.type === 'rejected') log.error('outbox', `The service refused the ${event.entry.kind} confirmation of ${event.entry.serialNumber}: ${event.entry.lastError?.message ?? ''}`);
      if (event.type === 'retry-scheduled') log.warn('outbox', `The ${event.entry.kind} confirmation of ${event.entry.serialNumber} waits: ${event.entry.lastError?.message ?? ''}`);
      // Several events arrive together (a pass over many entries): tell the renderer once.
      outboxChange ??= setTimeout(() => {
        outboxChange = null;
        void outboxView(outbox).then((view) => events.emit('outbox.changed', view), () => undefined);
      }, 50);
    },
  });
  outbox.start();

  const signingKeys = new Map<string, string>();
  const signingKey = async (account: Account): Promise<string> => {
    const known = signingKeys.get(account.serviceUrl);
    if (known) return known;
    const key = (await account.client.signingKey()).publicKeyPem;
    signingKeys.set(account.serviceUrl, key);
    return key;
  };

  const openSession = async (target: Pick<JobTarget, 'spec' | 'serialNumber'>): Promise<DeviceSession> =>
    DeviceSession.open(createLink(target.spec, options.linkDeps), { expectedSerialNumber: target.serialNumber });

  const provisioningContext: ProvisioningContext = { account: () => session.require('files.download'), cache, outbox, log };
  const provisioning: ProvisioningService =
    options.provisioning?.(provisioningContext) ?? new MinimalProvisioning({ ...provisioningContext, openSession, signingKey });

  const bench = new Bench({
    discovery: options.discovery ?? combinedDiscovery([usbSerialDiscovery(), simulatorDescriptorDiscovery(simulatorDir())]),
    identify: async (link: DiscoveredLink) => {
      const device = await DeviceSession.open(createLink(link.spec, options.linkDeps), { reconnectTimeoutMs: IDENTIFY_TIMEOUT_MS });
      const abort = AbortSignal.timeout(IDENTIFY_TIMEOUT_MS);
      try {
        return await identify(device, { signal: abort });
      } finally {
        await device.close().catch(() => undefined);
      }
    },
    account: () => session.current(),
    events,
    log,
    pollMs: options.benchPollMs,
  });
  provisioning.onProgress((jobs) => {
    for (const job of jobs) bench.noteJob(job, false);
    events.emit('jobs.progress', jobs);
  });
  provisioning.onFinished((job) => bench.noteJob(job, true));
  session.onChange(() => {
    void bench.refreshNeeds();
    void outbox.syncNow().catch(() => undefined);
  });
  bench.start();

  const handlers: AllHandlers = {
    'app.info': async () => appInfo,
    'session.get': () => session.view(),
    'session.signIn': (input) => session.signIn(input),
    'session.useLocalWorkspace': () => session.useLocalWorkspace(),
    'session.signOut': (input) => session.signOut(input.forget),
    ...configurationHandlers(session),
    ...registryHandlers(session),
    ...firmwareHandlers(session, cache),
    ...outboxHandlers(outbox),
    'bench.devices': async () => bench.devices(),
    'bench.rescan': () => bench.rescan(),
    'bench.start': async (input) => {
      session.require('files.download');
      let targets: JobTarget[];
      try {
        targets = bench.targets(input.linkIds);
      } catch (err) {
        throw new CoreError('DEVICE_ERROR', err instanceof Error ? err.message : String(err));
      }
      const started = provisioning.start(targets, input.action);
      for (const job of started) bench.noteJob(job, false);
      return started;
    },
    'bench.cancel': async (input) => provisioning.cancel(input.jobId),
    'bench.retry': async (input) => {
      session.require('files.download');
      const job = provisioning.retry(input.jobId);
      bench.noteJob(job, false);
      return job;
    },
    'bench.jobs': async () => provisioning.jobs(),
    'bench.clearFinished': async () => provisioning.clearFinished(),
    'logs.recent': async (input) => log.recent(input.limit),
    'support.report': () =>
      supportReport({ appInfo, session: () => session.view(), devices: () => bench.devices(), jobs: () => provisioning.jobs(), outbox: () => outboxView(outbox), log }),
  };

  if (options.resume ?? true) await session.resume();
  log.info('core', `Provisioner ${appInfo.appVersion} core started (${appInfo.host}, ${appInfo.platform}, Node ${appInfo.nodeVersion}).`);

  let closed = false;
  return {
    log,
    session,
    async invoke<C extends Channel>(channel: C, input: ParsedInput<C>): Promise<ChannelResult<C>> {
      const handler = handlers[channel] as Handler<C> | undefined;
      if (!handler) throw new CoreError('UNKNOWN_CHANNEL', `No handler for ${channel}.`);
      try {
        return await handler(input);
      } catch (err) {
        const core = toCoreError(err);
        if (core.code === 'INTERNAL') log.error('core', `${channel} failed: ${core.message}`);
        throw core;
      }
    },
    subscribe<S extends EventStream>(stream: S, listener: (payload: EventStreams[S]) => void): () => void {
      return events.subscribe(stream, listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      bench.close();
      await provisioning.close();
      await outbox.stop();
      if (outboxChange) clearTimeout(outboxChange);
      await session.close();
    },
  };
}
