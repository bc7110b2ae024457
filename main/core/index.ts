import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  LiveDeviceList,
  portGlobsFromEnv,
  type DiscoveredDevice,
  type LiveDeviceListOptions,
} from '../devices/discovery';
import type { LinkFactoryDeps } from '../devices';
import { createDeviceConnector, createJobsEngine, observationOf, type JobsEngine } from '../engine/jobs';
import {
  CONTRACT,
  CoreError,
  FINISHED_PHASES,
  type AppInfo,
  type Channel,
  type ChannelResult,
  type CoreHost,
  type EventStream,
  type EventStreams,
  type LogLine,
  type ParsedInput,
} from '../../contract/index';
import { Workbench, type DeviceSource } from '../features/workbench/workbench';
import { JobTimeline } from '../features/workbench/job-timeline';
import { workbenchJobs, type JobTarget, type WorkbenchJobs } from '../features/workbench/workbench-jobs';
import { CoreLog } from '../engine/core-log';
import { toCoreError } from './errors';
import { EventHub } from '../engine/event-hub';
import { configurationHandlers } from './handlers/configurations';
import { firmwareHandlers } from './handlers/firmware';
import { cacheHandlers } from './handlers/cache';
import { downloadHandlers } from './handlers/downloads';
import { zopfliSelfTest } from '../engine/cache/zopfli-self-test';
import { outboxHandlers, outboxView } from './handlers/outbox';
import { packageHandlers } from './handlers/packages';
import { accountabilityHandlers, sessionAccount } from './handlers/accountability';
import { ledgerHandlers } from './handlers/ledger';
import { registryHandlers } from './handlers/registry';
import { appReadbackHandlers } from './handlers/readback';
import { supportReport } from './handlers/support';
import { stationHandlers } from './handlers/station';
import { parameterConfirmationHandlers } from './handlers/parameter-confirmation';
import { jobsHandlers } from './handlers/jobs';
import { simulationHandlers, type SimulationPort } from './handlers/simulation';
import type { AllHandlers, Handler } from './handlers/types';
import { embeddedWorkspaceStarter, LOCAL_WORKSPACE_SERVICE, type LocalWorkspaceStarter } from './local-workspace';
import { AccountSession } from './account-session';
import type { SecretStore } from '../../platform/secret-store';
import { quarantineNotice } from '../../platform/quarantine';
import { planConfigurationChange } from './configuration-changes';
import { SettingsFile } from './settings-file';
import { settingsPathIn } from './login-store';
import { believableDevices } from '../../domain/shared-serial';

export type { SecretStore } from '../../platform/secret-store';
export { FileSecretStore } from '../../platform/secret-store';
export { LoginStore, fileLoginStoreIn, fileSecretStoreIn, type SavedLogin } from './login-store';
// The CLI signs in through its core's session channels; it says a refused key in its own words.
export { keyRefusalOf, type KeyRefusal } from './key-sign-in';
export type { DeviceSource } from '../features/workbench/workbench';
export type { WorkbenchJobs, JobTarget } from '../features/workbench/workbench-jobs';
export type { LocalWorkspace, LocalWorkspaceStarter } from './local-workspace';
export { embeddedWorkspaceStarter, LOCAL_WORKSPACE_SERVICE } from './local-workspace';
// The CLI settles its run's account itself (docs/decisions.md, "The CLI settles its account through the door"):
// the local workspace it opens for one command, the offline account of the work packages imported here.
export { LocalWorkspaceBusyError, openLocalWorkspace } from './local-workspace';
export { importedPackageAccount, type ImportedPackageAccount } from './offline-package-account';
export type { OutboxEvent } from '../engine/outbox/outbox';
export type { SimulationPort } from './handlers/simulation';
// The command-line host's door: the jobs channels over one account the CLI settles (cli-core.ts).
export { createCliCore, type CliChannel, type CliCore, type CliCoreOptions, type CliCoreStream } from './cli-core';
// The account a CLI run settles, and how its connections wait for a device that went away.
export type { ProvisioningAccount, ReconnectPolicy } from './cli-core';

export interface CoreOptions {
  /** Where the core keeps its settings, the provisioning data (outbox, firmware cache, intents) and the local workspace. */
  dataDir: string;
  secretStore: SecretStore;
  host: AppInfo['host'];
  appVersion?: string;
  /** Default: the embedded service with its data under `<dataDir>/workspace`. */
  startLocalWorkspace?: LocalWorkspaceStarter;
  /** Where devices are looked for (serial ports by USB id and port globs, BLE, IP targets) and how often; see LiveDeviceList. */
  deviceList?: LiveDeviceListOptions;
  /** Stands in for the live device list (tests). */
  deviceSource?: DeviceSource;
  linkDeps?: LinkFactoryDeps;
  /** Sign in again as last time (remembered key or local workspace). Default true. */
  resume?: boolean;
  /** Each log line also goes here (e.g. stderr in web mode). */
  onLogLine?: (line: LogLine) => void;
  /** The host's simulated bench (web mode's --simulate): its E-stops can be pressed and devices added. */
  simulation?: SimulationPort;
}

/** The core as a host runs it: the contract's CoreHost, plus shutdown. */
export interface Core extends CoreHost {
  readonly log: CoreLog;
  readonly session: AccountSession;
  close(): Promise<void>;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Builds the core: session and API client, configurations and the organization's records, the
 * firmware cache, the confirmation outbox, the workbench of attached devices and the jobs on them,
 * the log and the support report; all behind the contract (contract/).
 */
export async function createCore(options: CoreOptions): Promise<Core> {
  const events = new EventHub();
  const log = new CoreLog(events, options.onLogLine);
  const appInfo: AppInfo = {
    appVersion: options.appVersion ?? packageVersion(),
    host: options.host,
    platform: `${process.platform}-${process.arch}`,
    nodeVersion: process.version,
  };
  const settings = new SettingsFile(settingsPathIn(options.dataDir));
  const session = new AccountSession({
    settings,
    secrets: options.secretStore,
    log,
    events,
    startLocalWorkspace: options.startLocalWorkspace ?? embeddedWorkspaceStarter(join(options.dataDir, 'workspace')),
  });

  let outboxChange: ReturnType<typeof setTimeout> | null = null;
  let outboxViewReading = false;
  let outboxViewAgain = false;
  const emitOutboxView = (): void => {
    if (outboxViewReading) {
      outboxViewAgain = true;
      return;
    }
    outboxViewReading = true;
    void outboxView(engine.outbox)
      .then(
        (view) => events.emit('outbox.changed', view),
        () => undefined,
      )
      .finally(() => {
        outboxViewReading = false;
        if (!outboxViewAgain) return;
        outboxViewAgain = false;
        emitOutboxView();
      });
  };
  // The jobs engine (main/engine/jobs): job queue, firmware cache, confirmation outbox.
  const engine: JobsEngine = createJobsEngine({
    dataDir: join(options.dataDir, 'provisioning'),
    account: () => {
      const account = session.current();
      // The local workspace's URL changes per run: its confirmations are filed under a fixed name.
      return account
        ? {
            client: account.client,
            serviceUrl: account.kind === 'local' ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl,
            orgId: account.orgId,
          }
        : undefined;
    },
    clientFor: (serviceUrl, orgId) => session.clientFor(serviceUrl, orgId),
    connector: createDeviceConnector({ linkDeps: options.linkDeps }),
    onQuarantine: (file) => log.warn('files', quarantineNotice(file)),
    ledgerSecrets: options.secretStore,
    onOutboxEvent: (event) => {
      if (event.type === 'delivered')
        log.info('outbox', `Confirmed ${event.entry.kind} of ${event.entry.serialNumber} to the service.`);
      if (event.type === 'rejected')
        log.error(
          'outbox',
          `The service refused the ${event.entry.kind} confirmation of ${event.entry.serialNumber}: ${event.entry.lastError?.message ?? ''}`,
        );
      if (event.type === 'retry-scheduled')
        log.warn(
          'outbox',
          `The ${event.entry.kind} confirmation of ${event.entry.serialNumber} waits: ${event.entry.lastError?.message ?? ''}`,
        );
      // Several events arrive together (a pass over many entries): tell the renderer once. One
      // view is read at a time: with 10,000 entries waiting a read takes seconds, and a drain's
      // events would otherwise start a new read of every entry file each 50 ms.
      outboxChange ??= setTimeout(() => {
        outboxChange = null;
        emitOutboxView();
      }, 50);
    },
  });
  const { outbox, cache } = engine;
  const recovered = await engine.recoverInterrupted().catch(() => 0);
  if (recovered > 0)
    log.warn(
      'jobs',
      `${recovered} job(s) of an earlier run did not finish; their failure is confirmed to the service.`,
    );
  outbox.start();
  const provisioning: WorkbenchJobs = workbenchJobs(engine);

  let workbench: Workbench | null = null;
  // The links a function test watches: busy for the device list, as a job's are (handlers/accountability.ts).
  const functionTestLinks = new Set<string>();
  const serialOptions = options.deviceList?.serial;
  // Globs the host gives (web mode's --simulate) or $PROVISIONER_PORTS, plus the technician's setting.
  const environmentPortGlobs =
    serialOptions === false ? [] : [...(serialOptions?.portGlobs ?? portGlobsFromEnv(process.env))];
  const portGlobsOf = (saved: readonly string[]) => [...new Set([...environmentPortGlobs, ...saved])];
  const source: DeviceSource =
    options.deviceSource ??
    new LiveDeviceList({
      ...options.deviceList,
      ...(serialOptions === false
        ? {}
        : { serial: { ...serialOptions, portGlobs: portGlobsOf((await settings.read()).portGlobs) } }),
      isBusy: (link) => (workbench?.isBusy(link) ?? false) || functionTestLinks.has(link),
      onWarning: (message) => log.warn('devices', message),
    });
  const timeline = new JobTimeline(join(options.dataDir, 'provisioning', 'job-timeline.json'), {
    onError: (message) => log.warn('jobs', message),
  });
  const activeWorkbench = new Workbench({ source, account: () => session.current(), events, log, timeline });
  workbench = activeWorkbench;
  provisioning.onProgress((jobs) => {
    for (const job of jobs) activeWorkbench.noteJob(job, FINISHED_PHASES.includes(job.phase));
    events.emit('jobs.progress', jobs);
  });
  engine.onProgress((jobs) => events.emit('jobs.changed', jobs));
  engine.onFinished((job) => events.emit('jobs.finished', job));
  provisioning.onFinished((job) => {
    activeWorkbench.noteJob(job, true);
    const who = job.serialNumber ?? job.linkId;
    if (job.phase === 'done')
      log.info('jobs', `${who}: ${job.action} done${job.resultMessage ? `: ${job.resultMessage}` : ''}.`);
    else
      log.write(
        job.phase === 'failed' ? 'error' : 'warn',
        'jobs',
        `${who}: ${job.action} ${job.phase}${job.resultMessage ? `: ${job.resultMessage}` : ''}`,
      );
  });
  // The parameter tables of the Workbench's applies: a person confirms a matching one; one that
  // differs is recorded as a failed verification when its job ends (issue 26).
  const parameters = parameterConfirmationHandlers({
    session,
    jobs: () => engine.jobs(),
    ledger: engine.ledger,
    workstation: () => engine.workstation(),
  });
  const workbenchJobIds = new Set<string>();
  engine.onFinished((job) => {
    if (workbenchJobIds.delete(job.jobId))
      void parameters
        .jobFinished(job)
        .catch((err: unknown) =>
          log.warn(
            'ledger',
            `The parameter verification of ${job.serialNumber ?? job.linkId} could not be written to the ledger: ${err instanceof Error ? err.message : String(err)}`,
          ),
        );
  });
  // Station mode: the same device list and jobs engine as the workbench (its jobs show there too).
  const station = stationHandlers({
    account: () => sessionAccount(session)('files.download'),
    openDevices: async () => ({ devices: source, close: async () => undefined }),
    jobs: engine,
    dataDir: options.dataDir,
    emit: (event) => events.emit('station.event', event),
    warn: (message) => log.warn('station', message),
    log,
  });
  // Every device read is an observation: what it runs that the service has not recorded is
  // confirmed to it, and an interrupted job on it is judged (main/engine/jobs/reconcile.ts). Not a
  // copy of a serial number the station flags: it would speak for the real device. Nor any of two
  // attached devices that claim one serial number (domain/shared-serial.ts): neither is known to
  // be the real one.
  const observe = (all: readonly DiscoveredDevice[]) => {
    const devices = believableDevices(all, source.devices()).filter((d) => station.speaksForItsSerial(d));
    if (devices.length > 0)
      void engine.reconcile(devices.map((d) => observationOf(d, new Date()))).catch(() => undefined);
  };
  source.on((event) => {
    if (event.type !== 'removed') observe([event.device]);
    // The other of two that claimed one serial number is believed again once it is alone: its reading now.
    else
      observe(
        source.devices().filter((d) => d.serialNumber === event.device.serialNumber && d.link !== event.device.link),
      );
  });
  session.onChange(() => {
    void activeWorkbench.refreshNeeds();
    void outbox.syncNow().catch(() => undefined);
    observe(source.devices());
  });
  await activeWorkbench.start();

  const handlers: AllHandlers = {
    'app.info': async () => appInfo,
    'session.get': () => session.view(),
    'session.signIn': async (input) => {
      // Only a command-line run may send a key over plain http:// to another computer (--insecure).
      if (input.allowPlainHttp) {
        const message =
          "Only the command line may send an API key over plain http:// to another computer (--insecure); sign in at the service's https:// address.";
        throw new CoreError('INVALID_INPUT', message, [
          { code: 'INSECURE_SERVICE_URL', field: 'allowPlainHttp', message },
        ]);
      }
      return session.signIn(input);
    },
    'session.useLocalWorkspace': () => session.useLocalWorkspace(),
    'session.signOut': (input) => session.signOut(input.forget),
    ...configurationHandlers(session),
    ...registryHandlers(session, engine.ledger),
    // The CLI's read-backs of the devices it finds itself; here only commissioning by the ledger.
    ...appReadbackHandlers({ ledger: engine.ledger, admit: () => session.require('devices.read') }),
    ...firmwareHandlers(session, cache),
    ...cacheHandlers({
      cache,
      configFiles: () => engine.configFiles(),
      client: async () => session.require('files.download').client,
      admitChange: () => session.require('files.download'),
    }),
    // Files for a person to carry, checked and kept (the CLI's downloads), for a role that may download files.
    ...downloadHandlers({
      cache: () => cache,
      account: async () => {
        const account = session.require('files.download');
        return {
          client: account.client,
          orgId: account.orgId,
          stores: () => ({ signingKeys: engine.signingKeys(), configFiles: engine.configFiles() }),
        };
      },
    }),
    ...outboxHandlers(outbox, { hasClient: (serviceUrl, orgId) => session.clientFor(serviceUrl, orgId) !== undefined }),
    ...packageHandlers({ session, cache, workstation: () => engine.workstation() }),
    ...accountabilityHandlers({
      account: sessionAccount(session),
      ledger: () => engine.ledger,
      cache: () => cache,
      workstation: () => engine.workstation(),
      attached: async () => source.devices(),
      watchedLinks: functionTestLinks,
      onReady: (ready) => events.emit('functionTest.ready', ready),
    }),
    ...station.handlers,
    // This workstation's ledger: checked and sent for a role that confirms actions, another's key revoked for one that manages keys.
    ...ledgerHandlers({
      ledger: () => engine.ledger,
      workstation: () => engine.workstation(),
      dataDir: join(options.dataDir, 'provisioning'),
      account: sessionAccount(session),
      keptKeysFor: async () => {
        const account = session.current();
        if (!account) return undefined;
        return {
          serviceUrl: account.kind === 'local' ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl,
          orgId: account.orgId,
        };
      },
      onProgress: (progress) => events.emit('ledger.verifyProgress', progress),
    }),
    ...parameters.handlers,
    ...simulationHandlers({
      simulation: options.simulation,
      register: async (serialNumber, deviceType) => {
        const account = session.require('devices.write');
        const found = await account.client.devices.list({ serial: serialNumber, limit: 1 });
        if (found.items.some((d) => d.serialNumber === serialNumber)) return false;
        await account.client.devices.register({ serialNumber, name: `Workbench ${deviceType}` });
        return true;
      },
    }),
    // Jobs named by link (contract/jobs.ts): here only on devices the Workbench lists, for a role that may.
    ...jobsHandlers({
      engine,
      client: () => session.require().client,
      attached: async () =>
        source.devices().map((device) => ({ link: device.link, serialNumber: device.serialNumber, error: null })),
      admit: (targets) => {
        session.require('files.download');
        for (const target of targets) {
          const link = target.kind === 'link' ? target.spec : `sn:${target.serialNumber}`;
          if (!source.devices().some((device) => device.link === link))
            throw new CoreError(
              'DEVICE_ERROR',
              `${link} is not a device the Workbench lists: start jobs on an attached device.`,
            );
          try {
            activeWorkbench.refuseSharedSerial(link);
          } catch (err) {
            throw new CoreError('DEVICE_ERROR', err instanceof Error ? err.message : String(err));
          }
        }
      },
      // A job started here runs on a Workbench device: its parameter table is verified as a
      // workbench.start job's is (a differing one recorded as failed, a matching one left to a person).
      started: (jobs) => {
        for (const job of jobs) workbenchJobIds.add(job.jobId);
      },
    }),
    'workbench.devices': async () => {
      // Whoever opens the workbench wants current needs: the registry or the service may have changed.
      void activeWorkbench.refreshNeeds();
      return activeWorkbench.devices();
    },
    'workbench.rescan': () => activeWorkbench.rescan(),
    'workbench.start': async (input) => {
      session.require('files.download');
      let targets: JobTarget[];
      try {
        targets = activeWorkbench.targets(input.linkIds);
      } catch (err) {
        throw new CoreError('DEVICE_ERROR', err instanceof Error ? err.message : String(err));
      }
      const started = provisioning.start(targets, input.action);
      for (const job of started) workbenchJobIds.add(job.jobId);
      for (const job of started) activeWorkbench.noteJob(job, false);
      return started;
    },
    'workbench.cancel': async (input) => provisioning.cancel(input.jobId),
    'workbench.retry': async (input) => {
      session.require('files.download');
      const linkId = provisioning.jobs().find((j) => j.jobId === input.jobId)?.linkId;
      try {
        if (linkId) activeWorkbench.refuseSharedSerial(linkId);
      } catch (err) {
        throw new CoreError('DEVICE_ERROR', err instanceof Error ? err.message : String(err));
      }
      const job = provisioning.retry(input.jobId);
      workbenchJobIds.add(job.jobId);
      activeWorkbench.noteJob(job, false);
      return job;
    },
    'workbench.jobs': async () => provisioning.jobs(),
    'workbench.portGlobs': async () => ({
      saved: (await settings.read()).portGlobs,
      fromEnvironment: environmentPortGlobs,
    }),
    'workbench.setPortGlobs': async (input) => {
      const { portGlobs } = await settings.update({ portGlobs: [...new Set(input.portGlobs)] });
      await source.setPortGlobs?.(portGlobsOf(portGlobs));
      log.info(
        'devices',
        portGlobs.length > 0
          ? `Serial ports are also looked for at ${portGlobs.join(', ')}.`
          : 'Serial ports are looked for by USB id only.',
      );
      return { saved: portGlobs, fromEnvironment: environmentPortGlobs };
    },
    'workbench.clearFinished': async () => provisioning.clearFinished(),
    'workbench.timeline': (input) => activeWorkbench.timeline(input.device),
    'workbench.configurationChanges': async (input) => {
      const account = session.current();
      if (!account)
        throw new Error('Not signed in: sign in (or open the local workspace) to see what an apply would change.');
      return planConfigurationChange({
        client: account.client,
        store: engine.configFiles(),
        serialNumber: input.serialNumber,
      });
    },
    'logs.recent': async (input) => log.recent(input.limit),
    'support.cacheSelfTest': () => zopfliSelfTest(),
    'support.report': () =>
      supportReport({
        appInfo,
        session: () => session.view(),
        devices: () => activeWorkbench.devices(),
        jobs: () => provisioning.jobs(),
        outbox: () => outboxView(outbox),
        timeline: () => activeWorkbench.timelines(),
        log,
      }),
  };

  if (options.resume ?? true) await session.resume();
  log.info(
    'core',
    `Provisioner ${appInfo.appVersion} core started (${appInfo.host}, ${appInfo.platform}, Node ${appInfo.nodeVersion}).`,
  );

  let closed = false;
  return {
    log,
    session,
    async invoke<C extends Channel>(channel: C, input: ParsedInput<C>): Promise<ChannelResult<C>> {
      const handler = handlers[channel] as Handler<C> | undefined;
      if (!handler) throw new CoreError('UNKNOWN_CHANNEL', `No handler for ${channel}.`);
      try {
        const result = await handler(input);
        // What attached devices need depends on the registry and the configurations.
        if (CONTRACT[channel].kind === 'command' && /^(configurations|devices)\./.test(channel))
          void activeWorkbench.refreshNeeds();
        return result;
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
      await station.close();
      await activeWorkbench.close();
      await provisioning.close();
      await outbox.stop();
      if (outboxChange) clearTimeout(outboxChange);
      await session.close();
    },
  };
}
