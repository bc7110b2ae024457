import type { LinkSpec } from '../../devices';
import type { DeviceType } from '../../../domain/device-types';
import type { JobAction, JobView } from '../../../contract/index';

/** A device a job works on: where it is and who it said it was. */
export interface JobTarget {
  linkId: string;
  spec: LinkSpec;
  serialNumber: string;
  deviceType: DeviceType;
}

/**
 * What the bench needs from provisioning: update firmware, apply configuration, or both, on
 * devices, with progress, cancel and retry. main/core/bench/minimal-provisioning.ts implements it
 * on the device operations, the API client, the firmware cache and the outbox; the jobs engine of
 * main/provisioning can stand in for it behind this same interface.
 */
export interface ProvisioningService {
  start(targets: readonly JobTarget[], action: JobAction): JobView[];
  cancel(jobId: string): boolean;
  /** A new job for the same device and action. */
  retry(jobId: string): JobView;
  jobs(): JobView[];
  /** Forgets finished jobs; returns what remains. */
  clearFinished(): JobView[];
  /** Jobs whose state changed, batched and throttled. */
  onProgress(listener: (jobs: JobView[]) => void): () => void;
  /** A job reached done, failed or cancelled. */
  onFinished(listener: (job: JobView) => void): () => void;
  /** Cancels what runs and waits for it to stop. */
  close(): Promise<void>;
}
