import type { ServiceClient } from '../../cloud';
import type { AttachedDevice, DeviceConnector, DeviceFinder, DeviceTarget } from './device-port';
import { FirmwareCache } from '../cache/firmware-cache';
import type { JobSnapshot } from './job-state';
import { ConfigFileStore } from './config-file-store';
import { expireInterruptedJobs } from './confirm';
import { DEFAULT_RECONNECT, type JobEnvironment, type ProvisioningClient, type ReconnectPolicy } from './context';
import { IntentJournal } from './intent-journal';
import { Reconciler, type DeviceObservation, type ReconcileOutcome } from './reconcile';
import { workstationId } from './workstation';
import { SigningKeyStore } from './signing-key-store';
import { Outbox, type OutboxEvent } from '../outbox/outbox';
import { clientConfirmationSender } from '../outbox/outbox-sender';
import { provisioningPaths } from '../paths';
import type { ProgressListener } from './progress';
import { JobQueue, type JobQueueOptions, type JobRequest } from './queue';
import type { QuarantinedFile } from '../../../platform/quarantine';
import type { SecretStore } from '../../../platform/secret-store';
import { confirmationLedger, openWorkstationLedger, type Ledger } from '../ledger';

/** The account jobs run for: a client holding its key, and the identity confirmations are filed under. */
export interface ProvisioningAccount {
  client: ProvisioningClient;
  /** The outbox's name for the service: its URL, or a stable name for a service whose URL changes (the local workspace). */
  serviceUrl: string;
  orgId: string;
}

export interface JobsEngineOptions {
  /** Root of the firmware cache, outbox, intents and per-account files. */
  dataDir: string;
  /** The signed-in account now; undefined when nobody is (jobs then fail with "sign in first"). */
  account: () => ProvisioningAccount | undefined;
  /** A client for an outbox entry's service and organization, when the key for it is at hand. */
  clientFor: (serviceUrl: string, orgId: string) => ServiceClient | undefined;
  connector: DeviceConnector;
  finder?: DeviceFinder;
  concurrency?: number;
  reconnect?: Partial<ReconnectPolicy>;
  progressIntervalMs?: number;
  onOutboxEvent?: (event: OutboxEvent) => void;
  /**
   * A damaged file of one of the stores (cache index or blob, outbox entry, job intent, kept
   * configuration file, signing key) was set aside in its quarantine folder, bytes intact. The host
   * says so where a person reads it: nothing is lost, but someone should know.
   */
  onQuarantine?: (file: QuarantinedFile) => void;
  /**
   * Where the ledger's signing key is kept: the host's secret store (the desktop app's is the OS
   * key store). Without it, the data directory's 0600 secrets file, as the CLI keeps its login.
   */
  ledgerSecrets?: SecretStore;
  /** Overrides for tests (step runners, clocks). */
  queue?: Partial<Pick<JobQueueOptions, 'runners' | 'now' | 'clock' | 'newId'>>;
}

/**
 * The provisioning core the app (main/core) and the CLI share: a job queue over attached devices,
 * throttled progress, the firmware cache and the confirmation outbox.
 */
export interface JobsEngine {
  /** One job per request; they run `concurrency` at a time, one per device. */
  start(requests: readonly JobRequest[]): JobSnapshot[];
  cancel(jobId: string): boolean;
  retry(jobId: string, target?: DeviceTarget): JobSnapshot;
  wait(jobId: string): Promise<JobSnapshot>;
  jobs(): JobSnapshot[];
  clearFinished(): JobSnapshot[];
  /** Forgets one finished job, once its owner has recorded it (the Station's lanes); false when it is not finished. */
  forget(jobId: string): boolean;
  /** Batches of changed jobs, at most ~10 a second per job (see progress.ts). */
  onProgress(listener: ProgressListener): () => void;
  /** Once per job, with its final snapshot. */
  onFinished(listener: (job: JobSnapshot) => void): () => void;
  /** Tell the queue a device appeared: a failed, resumable job of it runs again and resumes. */
  deviceAttached(serialNumber: string, target?: DeviceTarget): JobSnapshot[];
  listDevices(options?: { signal?: AbortSignal; extraLinks?: readonly string[] }): Promise<AttachedDevice[]>;
  /**
   * Devices were read (listed, identified): judge their interrupted jobs and confirm to the
   * signed-in service what they report that it has not recorded (reconcile.ts).
   */
  reconcile(
    observations: readonly DeviceObservation[],
    options?: { signal?: AbortSignal },
  ): Promise<ReconcileOutcome[]>;
  /** This workstation's stable id, sent with every confirmation. */
  workstation(): Promise<string>;
  readonly outbox: Outbox;
  /** The workstation's provisioning ledger: every confirmed action is appended to it first. */
  readonly ledger: Ledger;
  readonly cache: FirmwareCache;
  /** Configuration files kept for offline use, for the signed-in account. */
  configFiles(): ConfigFileStore;
  /** The service's root key, kept for the signed-in account (it checks configuration files offline). */
  signingKeys(): SigningKeyStore;
  /**
   * Jobs a previous process left unfinished wait for their device to be seen again; those waiting
   * longer than the limit (INTERRUPTED_JOB_LIMIT_MS) are confirmed as failures now. Call once at
   * start; resolves with how many were confirmed so.
   */
  recoverInterrupted(): Promise<number>;
  close(): Promise<void>;
}

export function createJobsEngine(options: JobsEngineOptions): JobsEngine {
  const paths = provisioningPaths(options.dataDir);
  const onQuarantine = options.onQuarantine;
  const cache = new FirmwareCache({
    dir: paths.firmwareCache,
    onEvent: (event) => {
      if (event.type === 'quarantined') onQuarantine?.(event.file);
      if (event.type === 'evicted-corrupt' && event.file) onQuarantine?.(event.file);
    },
  });
  const outbox = new Outbox({
    dir: paths.outbox,
    sender: clientConfirmationSender(options.clientFor),
    onEvent: (event) => {
      if (event.type === 'quarantined') onQuarantine?.(event.file);
      options.onOutboxEvent?.(event);
    },
  });
  const intents = new IntentJournal({ dir: paths.intents, onQuarantine });
  const ledger = openWorkstationLedger(options.dataDir, onQuarantine, options.ledgerSecrets);
  const reconnect: ReconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
  let workstationPromise: Promise<string> | undefined;
  const workstation = (): Promise<string> => {
    workstationPromise ??= workstationId(options.dataDir).catch((err: unknown) => {
      workstationPromise = undefined;
      throw err;
    });
    return workstationPromise;
  };
  /** Every confirmed action goes to the ledger first: a job's result, and an interrupted job's once judged. */
  const confirmedActions = confirmationLedger(ledger, async () => ({ workstation: await workstation() }));
  const reconciler = new Reconciler({
    intents,
    outbox,
    workstation,
    ledger: confirmedActions,
    account: () => {
      const account = options.account();
      return account && { client: account.client, address: { serviceUrl: account.serviceUrl, orgId: account.orgId } };
    },
  });
  const perAccount = new Map<string, { configFiles: ConfigFileStore; signingKeys: SigningKeyStore }>();
  const storesFor = (account: ProvisioningAccount) => {
    const key = `${account.serviceUrl}\u0000${account.orgId}`;
    let stores = perAccount.get(key);
    if (!stores) {
      const dirs = paths.account(account.serviceUrl, account.orgId);
      stores = {
        configFiles: new ConfigFileStore({ dir: dirs.configFiles, onQuarantine }),
        signingKeys: new SigningKeyStore({ dir: dirs.keys, onQuarantine }),
      };
      perAccount.set(key, stores);
    }
    return stores;
  };
  const requireAccount = (): ProvisioningAccount => {
    const account = options.account();
    if (!account) throw new Error('Not signed in: sign in to a service (or use the local workspace) first.');
    return account;
  };
  const environment = async (): Promise<JobEnvironment> => {
    const account = requireAccount();
    return {
      connector: options.connector,
      cache,
      outbox,
      intents,
      reconciler,
      client: account.client,
      address: {
        serviceUrl: account.serviceUrl,
        orgId: account.orgId,
        workstation: await workstation(),
        ledger: confirmedActions,
      },
      reconnect,
      now: () => new Date(),
      ...storesFor(account),
    };
  };
  const queue = new JobQueue({
    concurrency: options.concurrency,
    environment,
    progressIntervalMs: options.progressIntervalMs,
    ...options.queue,
  });

  return {
    start: (requests) => requests.map((request) => queue.submit(request)),
    cancel: (jobId) => queue.cancel(jobId),
    retry: (jobId, target) => queue.retry(jobId, target),
    wait: (jobId) => queue.wait(jobId),
    jobs: () => queue.jobs(),
    clearFinished: () => queue.clearFinished(),
    forget: (jobId) => queue.forget(jobId),
    onProgress: (listener) => queue.subscribe(listener),
    onFinished: (listener) => queue.onFinished(listener),
    deviceAttached: (serialNumber, target) => queue.deviceAttached(serialNumber, target),
    listDevices: async (listOptions) => {
      if (!options.finder) throw new Error('Device discovery is not available here.');
      return options.finder.list(listOptions);
    },
    reconcile: (observations, reconcileOptions) => reconciler.reconcile(observations, reconcileOptions),
    workstation,
    outbox,
    ledger,
    cache,
    configFiles: () => storesFor(requireAccount()).configFiles,
    signingKeys: () => storesFor(requireAccount()).signingKeys,
    recoverInterrupted: async () =>
      (
        await expireInterruptedJobs(intents, outbox, {
          now: new Date(),
          workstation: await workstation(),
          ledger: confirmedActions,
        })
      ).expired.length,
    close: async () => {
      for (const job of queue.jobs()) queue.cancel(job.jobId);
      await queue.idle();
      queue.progress.dispose();
      await outbox.stop();
    },
  };
}
