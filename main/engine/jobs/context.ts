import type { ServiceClient } from '../../cloud';
import type { DeviceConnector, DeviceTarget } from './device-port';
import type { FirmwareCache } from '../cache/firmware-cache';
import type { JobPhase, JobStep, JobUpdate } from './job-state';
import type { Outbox } from '../outbox/outbox';
import type { ConfigFileStore } from './config-file-store';
import type { ConfirmationAddress } from './confirm';
import type { IntentJournal } from './intent-journal';
import type { Reconciler } from './reconcile';
import type { SigningKeyStore } from './signing-key-store';

/** The part of the API client the jobs use (tests pass narrower fakes). */
export type ProvisioningClient = Pick<ServiceClient, 'baseUrl' | 'orgId' | 'signingKey' | 'firmwareReleaseKeys'> & {
  devices: Pick<
    ServiceClient['devices'],
    | 'list'
    | 'listAll'
    | 'firmwareVersion'
    | 'firmwareVersionByType'
    | 'fetchFirmware'
    | 'fetchFirmwareByType'
    | 'fetchConfigurationFile'
  >;
  /** The status of a device's configuration, for its warnings (configuration-warnings.ts); without it none are shown. */
  configurations?: Pick<ServiceClient['configurations'], 'validate'>;
};

/** After a pulled cable: how long and how often to look for the device before giving up. */
export interface ReconnectPolicy {
  /** Attempts at the device in one job, the first included. */
  attempts: number;
  /** How long to wait for the device to answer again after it went away. */
  waitMs: number;
  pollMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { attempts: 4, waitMs: 60_000, pollMs: 500 };

/** Everything a job works with; one per signed-in account. */
export interface JobEnvironment {
  connector: DeviceConnector;
  cache: FirmwareCache;
  configFiles: ConfigFileStore;
  signingKeys: SigningKeyStore;
  outbox: Pick<Outbox, 'deliver'>;
  intents: IntentJournal;
  /** Compares what a device reports with what the service recorded (absent in tests that do not need it). */
  reconciler?: Pick<Reconciler, 'reconcile' | 'settleInterrupted'>;
  client: ProvisioningClient;
  /** Where confirmations go. */
  address: ConfirmationAddress;
  reconnect: ReconnectPolicy;
  now(): Date;
}

/** What the queue hands a running job. */
export interface JobControl {
  readonly jobId: string;
  readonly signal: AbortSignal;
  update(change: JobUpdate): void;
}

export type FirmwareSourceRequest = { kind: 'latest' } | { kind: 'file'; bytes: Uint8Array; name: string };
export type ConfigurationSourceRequest = { kind: 'service' } | { kind: 'file'; bytes: Uint8Array; name: string };

export interface FirmwareJobRequest {
  target: DeviceTarget;
  source: FirmwareSourceRequest;
  /** Install even when the device already runs that version. */
  force?: boolean;
}

export interface ConfigurationJobRequest {
  target: DeviceTarget;
  source: ConfigurationSourceRequest;
}

/** How a job step ended; the queue turns it into the final snapshot. */
export type StepResult = Required<
  Pick<JobUpdate, 'outcome' | 'resultMessage' | 'errorCode' | 'resumable' | 'confirmation'>
> &
  JobUpdate;

/** Where a job step is, kept for its failure message ("failed at 48% while uploading"). */
export interface JobWhereabouts {
  phase: JobPhase;
  percent: number | null;
  connecting: boolean;
}

/** A step's position, and the one way to move it on: record the phase and tell the listeners. */
export function trackPhase(
  control: JobControl,
  step: JobStep,
): { where: JobWhereabouts; phase: (next: JobPhase, extra?: Parameters<JobControl['update']>[0]) => void } {
  const where: JobWhereabouts = { phase: 'resolving', percent: null, connecting: false };
  const phase = (next: JobPhase, extra: Parameters<JobControl['update']>[0] = {}) => {
    where.phase = next;
    control.update({ step, phase: next, ...extra });
  };
  return { where, phase };
}
