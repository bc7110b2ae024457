import { randomUUID } from 'node:crypto';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { applyFirmware, uploadConfiguration, uploadFirmware, type DeviceSession, type UploadProgress } from '../../devices';
import { resolveFirmware } from '../../provisioning/firmware-cache-resolve';
import type { FirmwareCache } from '../../provisioning/firmware-cache';
import type { NewConfirmation, Outbox } from '../../provisioning/outbox';
import { FINISHED_PHASES, type JobAction, type JobPhase, type JobView } from '../../../preload/contract';
import type { CoreLog } from '../core-log';
import type { Account } from '../session';
import type { JobTarget, ProvisioningService } from './provisioning-service';

export interface MinimalProvisioningDeps {
  /** The account jobs run for (checked for the right to download files); throws when signed out. */
  account(): Account;
  cache: FirmwareCache;
  outbox: Outbox;
  log: CoreLog;
  /** Opens a session on the target's link that refuses any other device. */
  openSession(target: JobTarget): Promise<DeviceSession>;
  /** The service's configuration-file public key (PEM), to check signatures before the device does. */
  signingKey(account: Account): Promise<string>;
  /** Jobs running at once; the others wait as `queued`. Default 16. */
  concurrency?: number;
  /** Progress batches at most this often. Default 100 ms. */
  progressIntervalMs?: number;
}

interface RunningJob {
  view: JobView;
  target: JobTarget;
  abort: AbortController;
  /** The account the job started under: its confirmations go to that service and organization. */
  account: Account;
}

/** Thrown inside a job to end it with a message but no stack of causes. */
class JobFailure extends Error {}

/**
 * The bench's provisioning, minimal: each job runs the steps of one device in order (firmware:
 * resolve from cache or service → upload → apply and wait for the reboot → confirm; configuration:
 * download → check signature and serial → upload → wait for the reboot → confirm), isolated from
 * the others, with a concurrency limit, cancel and retry. Confirmations go through the outbox, so
 * they are on disk before they are sent and survive a service that is away.
 */
export class MinimalProvisioning implements ProvisioningService {
  private readonly all = new Map<string, RunningJob>();
  private readonly waiting: RunningJob[] = [];
  private running = 0;
  private readonly progressListeners = new Set<(jobs: JobView[]) => void>();
  private readonly finishedListeners = new Set<(job: JobView) => void>();
  private readonly dirty = new Set<string>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly runs = new Set<Promise<void>>();
  private readonly concurrency: number;
  private readonly progressIntervalMs: number;

  constructor(private readonly deps: MinimalProvisioningDeps) {
    this.concurrency = deps.concurrency ?? 16;
    this.progressIntervalMs = deps.progressIntervalMs ?? 100;
  }

  start(targets: readonly JobTarget[], action: JobAction): JobView[] {
    const account = this.deps.account();
    const views = targets.map((target) => {
      const busy = [...this.all.values()].find((j) => j.target.linkId === target.linkId && !FINISHED_PHASES.includes(j.view.phase));
      if (busy) return busy.view;
      const now = new Date().toISOString();
      const job: RunningJob = {
        target,
        account,
        abort: new AbortController(),
        view: {
          jobId: randomUUID(),
          linkId: target.linkId,
          serialNumber: target.serialNumber,
          deviceType: target.deviceType,
          action,
          step: action === 'configuration' ? 'configuration' : 'firmware',
          phase: 'queued',
          bytesDone: 0,
          bytesTotal: null,
          rateBytesPerSecond: null,
          startedAt: now,
          updatedAt: now,
          finishedAt: null,
          resultMessage: null,
          firmwareVersion: null,
          syncId: null,
          confirmation: 'none',
        },
      };
      this.all.set(job.view.jobId, job);
      this.waiting.push(job);
      this.deps.log.info('jobs', `${target.serialNumber}: ${action} queued on ${target.linkId}.`);
      return job.view;
    });
    this.pump();
    return views.map((v) => ({ ...v }));
  }

  cancel(jobId: string): boolean {
    const job = this.all.get(jobId);
    if (!job || FINISHED_PHASES.includes(job.view.phase)) return false;
    job.abort.abort(new JobFailure('Cancelled by the technician.'));
    const index = this.waiting.indexOf(job);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      this.finish(job, 'cancelled', 'Cancelled before it started.');
    }
    return true;
  }

  retry(jobId: string): JobView {
    const job = this.all.get(jobId);
    if (!job) throw new Error('That job is no longer known; start it again from the bench.');
    const [view] = this.start([job.target], job.view.action);
    if (!view) throw new Error('The job could not be started again.');
    return view;
  }

  jobs(): JobView[] {
    return [...this.all.values()].map((j) => ({ ...j.view }));
  }

  clearFinished(): JobView[] {
    for (const [id, job] of this.all) if (FINISHED_PHASES.includes(job.view.phase)) this.all.delete(id);
    return this.jobs();
  }

  onProgress(listener: (jobs: JobView[]) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  onFinished(listener: (job: JobView) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  async close(): Promise<void> {
    for (const job of this.all.values()) if (!FINISHED_PHASES.includes(job.view.phase)) this.cancel(job.view.jobId);
    await Promise.allSettled([...this.runs]);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flush();
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running += 1;
      const run = this.run(job).finally(() => {
        this.running -= 1;
        this.runs.delete(run);
        this.pump();
      });
      this.runs.add(run);
    }
  }

  private async run(job: RunningJob): Promise<void> {
    const { action } = job.view;
    try {
      if (action === 'firmware' || action === 'both') await this.firmwareStep(job);
      if (action === 'configuration' || action === 'both') await this.configurationStep(job);
      this.finish(job, 'done', null);
    } catch (err) {
      const cancelled = job.abort.signal.aborted;
      const message = cancelled ? 'Cancelled by the technician.' : messageOf(err);
      this.deps.log.error('jobs', `${job.target.serialNumber}: ${job.view.step} failed: ${message}`);
      this.finish(job, cancelled ? 'cancelled' : 'failed', message);
    }
  }

  private async firmwareStep(job: RunningJob): Promise<void> {
    const { target, account, abort } = job;
    const signal = abort.signal;
    this.update(job, { step: 'firmware', phase: 'resolving', bytesDone: 0, bytesTotal: null, rateBytesPerSecond: null });
    const resolved = await resolveFirmware(this.deps.cache, account.client, { deviceType: target.deviceType, serialNumber: target.serialNumber }, { signal });
    if (resolved.notice) this.deps.log.warn('jobs', `${target.serialNumber}: ${resolved.notice}`);
    const { image, version } = resolved.bundle;
    this.update(job, { phase: 'uploading', bytesTotal: image.length });
    const session = await this.deps.openSession(target);
    let touched = false;
    try {
      touched = true;
      await uploadFirmware(session, image, { version, deviceType: target.deviceType, signal, onProgress: (p) => this.progress(job, p) });
      this.update(job, { phase: 'applying', rateBytesPerSecond: null });
      const info = await applyFirmware(session, { version, signal });
      this.update(job, { phase: 'confirming', firmwareVersion: info.firmwareVersion });
      this.deps.log.info('jobs', `${target.serialNumber}: runs firmware ${info.firmwareVersion}.`);
      await this.confirm(job, {
        kind: 'firmware',
        serviceUrl: account.serviceUrl,
        orgId: account.orgId,
        serialNumber: target.serialNumber,
        payload: { firmwareFileSuccessfullyDeployed: true, error: null, firmwareVersion: info.firmwareVersion, applyTimeStamp: new Date().toISOString() },
      });
    } catch (err) {
      if (touched && !signal.aborted) {
        await this.confirm(job, {
          kind: 'firmware',
          serviceUrl: account.serviceUrl,
          orgId: account.orgId,
          serialNumber: target.serialNumber,
          payload: { firmwareFileSuccessfullyDeployed: false, error: messageOf(err), firmwareVersion: null, applyTimeStamp: new Date().toISOString() },
        }).catch(() => undefined);
      }
      throw err;
    } finally {
      await session.close().catch(() => undefined);
    }
  }

  private async configurationStep(job: RunningJob): Promise<void> {
    const { target, account, abort } = job;
    const signal = abort.signal;
    this.update(job, { step: 'configuration', phase: 'downloading', bytesDone: 0, bytesTotal: null, rateBytesPerSecond: null });
    const file = await account.client.devices.fetchConfigurationFile(target.serialNumber, { signal });
    this.update(job, { phase: 'verifying', bytesTotal: file.bytes.length });
    const publicKeyPem = await this.deps.signingKey(account);
    const decoded = verifyConfigFile(file.bytes, { publicKeyPem });
    if (decoded.serialNumber !== target.serialNumber) {
      throw new JobFailure(`The service sent the configuration file of ${decoded.serialNumber} for ${target.serialNumber}; nothing was sent to the device.`);
    }
    if (file.syncId && file.syncId !== decoded.syncId) {
      throw new JobFailure(`The file's syncId ${decoded.syncId} differs from the service's header ${file.syncId}; nothing was sent to the device.`);
    }
    this.update(job, { phase: 'uploading', syncId: decoded.syncId });
    const session = await this.deps.openSession(target);
    try {
      const result = await uploadConfiguration(session, file.bytes, { publicKeyPem, signal, onProgress: (p) => this.progress(job, p) }).catch(async (err: unknown) => {
        if (!signal.aborted) {
          await this.confirm(job, {
            kind: 'configuration',
            serviceUrl: account.serviceUrl,
            orgId: account.orgId,
            serialNumber: target.serialNumber,
            payload: { configurationFileSuccessfullyDeployed: false, error: messageOf(err), syncId: decoded.syncId, applyTimeStamp: new Date().toISOString() },
          }).catch(() => undefined);
        }
        throw err;
      });
      this.update(job, { phase: 'confirming', syncId: result.syncId, rateBytesPerSecond: null });
      this.deps.log.info('jobs', `${target.serialNumber}: applied configuration ${result.syncId}.`);
      await this.confirm(job, {
        kind: 'configuration',
        serviceUrl: account.serviceUrl,
        orgId: account.orgId,
        serialNumber: target.serialNumber,
        payload: { configurationFileSuccessfullyDeployed: true, error: null, syncId: result.syncId, applyTimeStamp: new Date().toISOString() },
      });
    } finally {
      await session.close().catch(() => undefined);
    }
  }

  /** Durable first, then sent: a confirmation waiting in the outbox is not a failure of the job. */
  private async confirm(job: RunningJob, confirmation: NewConfirmation): Promise<void> {
    const { delivered } = await this.deps.outbox.deliver(confirmation);
    if (!delivered) this.deps.log.warn('jobs', `${confirmation.serialNumber}: the ${confirmation.kind} confirmation waits in the outbox.`);
    const previous = job.view.confirmation;
    this.update(job, { confirmation: !delivered || previous === 'queued' ? 'queued' : 'sent' });
  }

  private progress(job: RunningJob, p: UploadProgress): void {
    this.update(job, { bytesDone: p.bytes, bytesTotal: p.total, rateBytesPerSecond: p.rate > 0 ? p.rate : null });
  }

  private finish(job: RunningJob, phase: JobPhase, message: string | null): void {
    const now = new Date().toISOString();
    const resultMessage = message ?? doneMessage(job.view);
    this.update(job, { phase, finishedAt: now, resultMessage, rateBytesPerSecond: null });
    this.flush();
    const view = { ...job.view };
    for (const listener of this.finishedListeners) listener(view);
  }

  private update(job: RunningJob, change: Partial<JobView>): void {
    job.view = { ...job.view, ...change, updatedAt: new Date().toISOString() };
    this.dirty.add(job.view.jobId);
    // Batches: 16 devices reporting every block would otherwise flood the renderer.
    this.flushTimer ??= setTimeout(() => this.flush(), this.progressIntervalMs);
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.dirty.size === 0) return;
    const batch = [...this.dirty].map((id) => this.all.get(id)?.view).filter((v): v is JobView => v !== undefined).map((v) => ({ ...v }));
    this.dirty.clear();
    for (const listener of this.progressListeners) listener(batch);
  }
}

function doneMessage(view: JobView): string {
  const parts: string[] = [];
  if (view.action !== 'configuration' && view.firmwareVersion) parts.push(`runs firmware ${view.firmwareVersion}`);
  if (view.action !== 'firmware' && view.syncId) parts.push(`configuration ${view.syncId.slice(0, 8)} applied`);
  return parts.join('; ') || 'Done.';
}

export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
