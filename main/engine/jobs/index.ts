/**
 * Provisioning: jobs that put firmware and configuration files on attached devices and confirm
 * them to the service, many devices at once, with throttled progress; the firmware cache and the
 * confirmation outbox they rely on.
 *
 *   const provisioning = createJobsEngine({ dataDir, account, clientFor, connector, finder });
 *   provisioning.onProgress((batch) => ...);              // JobSnapshot[] (the UI's JobView fields)
 *   const [job] = provisioning.start([{ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/ttyACM0' } }]);
 *   const final = await provisioning.wait(job.jobId);
 */
export { createJobsEngine, type JobsEngine, type JobsEngineOptions, type ProvisioningAccount } from './jobs-engine';
export { JobQueue, DEFAULT_CONCURRENCY, type JobRequest, type JobQueueOptions, type StepRunners } from './queue';
export * from './job-state';
export * from './progress';
export * from './device-port';
export type {
  JobEnvironment,
  JobControl,
  StepResult,
  ProvisioningClient,
  ReconnectPolicy,
  FirmwareJobRequest,
  ConfigurationJobRequest,
  FirmwareSourceRequest,
  ConfigurationSourceRequest,
} from './context';
export { DEFAULT_RECONNECT } from './context';
export { runFirmwareJob } from './firmware-update-job';
export { runConfigurationJob } from './configuration-apply-job';
export { describeFailure, failureText, JobFailure, type Failure } from './failure';
export { configurationReadiness, type ConfigurationReadiness } from './configuration-readiness';
export { notApplicableReason } from './step-record';
export { ConfigFileStore, type StoredConfigFileMeta } from './config-file-store';
export { SigningKeyStore } from './signing-key-store';
export { IntentJournal, type JobIntent } from './intent-journal';
export { provisioningPaths, type ProvisioningPaths } from '../paths';
export { FirmwareCache, type CacheEntry } from '../cache/firmware-cache';
export { resolveFirmware, NoFirmwareAvailableError } from '../cache/resolve-firmware';
export { Outbox, type OutboxEntry, type OutboxEvent, type PendingSummary } from '../outbox/outbox';
export { clientConfirmationSender } from '../outbox/outbox-sender';
export { createDeviceConnector, type DeviceConnectorOptions } from './connector';
export { createDeviceFinder, type FinderOptions } from './finder';
export { Reconciler, observationOf, type DeviceObservation, type ReconcileOutcome } from './reconcile';
export {
  deviceSync,
  latestFirmwareByType,
  recordedReading,
  SYNC_STATE_LABELS,
  type DeviceSync,
  type DeviceSyncState,
  type DeviceReading,
  type SettingsReadBack,
} from './device-sync';
