import { randomUUID } from 'node:crypto';
import { targetLabel, type DeviceTarget } from './device-port';
import { initialSnapshot, isFinishedPhase, type JobAction, type JobSnapshot, type JobUpdate } from './job-state';
import { runConfigurationJob } from './configuration-apply-job';
import type {
  ConfigurationSourceRequest,
  FirmwareSourceRequest,
  JobControl,
  JobEnvironment,
  StepResult,
} from './context';
import { runFirmwareJob } from './firmware-update-job';
import { ProgressBatcher, RateMeter, type ProgressListener } from './progress';
import { confirmationWords, STALL_NOTICE_MS } from './progress-text';
import { isNotApplicable, stepsOnCancelledBeforeStart, stepsOnProgress, stepsOnResult } from './step-record';
import { stepsLine } from '../../../domain/job-steps';

/**
 * Many devices at once: jobs wait for one of `concurrency` slots, at most one job per device runs at
 * a time, and every job is isolated (its failure, even a thrown bug, ends that job only). Each job
 * can be cancelled on its own; its AbortSignal reaches the HTTP calls and the CoAP engine.
 */

export interface JobRequest {
  action: JobAction;
  target: DeviceTarget;
  /** Default: the latest firmware for the device. */
  firmware?: FirmwareSourceRequest;
  /** Install even when the device already runs that version. */
  force?: boolean;
  /** Default: the device's configuration file from the service. */
  configuration?: ConfigurationSourceRequest;
}

/** Runs one step; replaceable in tests. */
export interface StepRunners {
  firmware: typeof runFirmwareJob;
  configuration: typeof runConfigurationJob;
}

export interface JobQueueOptions {
  /** How many devices are worked on at once. */
  concurrency?: number;
  /** The environment of the signed-in account, looked up when a job starts. */
  environment: () => JobEnvironment | Promise<JobEnvironment>;
  progressIntervalMs?: number;
  progress?: ProgressBatcher;
  runners?: Partial<StepRunners>;
  now?: () => Date;
  /** Monotonic milliseconds, for rates. */
  clock?: () => number;
  newId?: () => string;
  /** How long a transfer goes without an acknowledgement before its line says so (default STALL_NOTICE_MS). */
  stallNoticeMs?: number;
}

/** How often a running transfer is looked at for silence: the notice's own seconds count up at this pace. */
const SILENCE_CHECK_MS = 1000;

interface Entry {
  request: JobRequest;
  snapshot: JobSnapshot;
  controller: AbortController;
  rate: RateMeter;
  /** clock() of the last byte acknowledged (or of the transfer's start): silence is measured from it. */
  lastProgressAt: number;
  done: Promise<JobSnapshot>;
  resolve: (snapshot: JobSnapshot) => void;
}

export const DEFAULT_CONCURRENCY = 8;

export class JobQueue {
  readonly progress: ProgressBatcher;
  private readonly entries = new Map<string, Entry>();
  private readonly waiting: string[] = [];
  private readonly busyDevices = new Set<string>();
  private running = 0;
  private readonly finishedListeners = new Set<(job: JobSnapshot) => void>();
  private readonly concurrency: number;
  private readonly runners: StepRunners;
  private readonly now: () => Date;
  private readonly clock: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: JobQueueOptions) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
    this.progress = options.progress ?? new ProgressBatcher(options.progressIntervalMs);
    this.runners = { firmware: runFirmwareJob, configuration: runConfigurationJob, ...options.runners };
    this.now = options.now ?? (() => new Date());
    this.clock = options.clock ?? (() => performance.now());
    this.newId = options.newId ?? (() => randomUUID());
  }

  /** Throttled batches of changed jobs (see progress.ts). */
  subscribe(listener: ProgressListener): () => void {
    return this.progress.subscribe(listener);
  }

  /** Called once per job with its final snapshot (after the progress batch that carries it). */
  onFinished(listener: (job: JobSnapshot) => void): () => void {
    this.finishedListeners.add(listener);
    return () => {
      this.finishedListeners.delete(listener);
    };
  }

  submit(request: JobRequest): JobSnapshot {
    const jobId = this.newId();
    let resolve!: (snapshot: JobSnapshot) => void;
    const done = new Promise<JobSnapshot>((r) => (resolve = r));
    const snapshot = initialSnapshot({
      jobId,
      linkId: targetLabel(request.target),
      action: request.action,
      serialNumber: request.target.serialNumber ?? null,
      now: this.now(),
    });
    const entry: Entry = {
      request,
      snapshot,
      controller: new AbortController(),
      rate: new RateMeter(),
      lastProgressAt: this.clock(),
      done,
      resolve,
    };
    this.entries.set(jobId, entry);
    this.waiting.push(jobId);
    this.progress.update(snapshot);
    this.pump();
    return snapshot;
  }

  /** Resolves with the job's final snapshot. */
  wait(jobId: string): Promise<JobSnapshot> {
    const entry = this.entries.get(jobId);
    if (!entry) return Promise.reject(new Error(`No job ${jobId}.`));
    return entry.done;
  }

  /** Resolves when every job submitted so far has finished. */
  async idle(): Promise<JobSnapshot[]> {
    return Promise.all([...this.entries.values()].map((e) => e.done));
  }

  get(jobId: string): JobSnapshot | undefined {
    return this.entries.get(jobId)?.snapshot;
  }

  jobs(): JobSnapshot[] {
    return [...this.entries.values()].map((e) => e.snapshot);
  }

  /** Cancels a waiting or running job; false when it has already finished or is unknown. */
  cancel(jobId: string): boolean {
    const entry = this.entries.get(jobId);
    if (!entry || isFinishedPhase(entry.snapshot.phase)) return false;
    const index = this.waiting.indexOf(jobId);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      this.finish(entry, {
        steps: stepsOnCancelledBeforeStart(entry.snapshot.steps, this.now().toISOString()),
        phase: 'cancelled',
        outcome: 'cancelled',
        resultMessage: 'cancelled before it started',
        errorCode: 'CANCELLED',
        resumable: false,
        confirmation: 'none',
      });
      return true;
    }
    entry.controller.abort(new DOMException('Cancelled by the technician', 'AbortError'));
    return true;
  }

  /** Runs a finished job's request again as a new job (an interrupted upload resumes on the device). */
  retry(jobId: string, target?: DeviceTarget): JobSnapshot {
    const entry = this.entries.get(jobId);
    if (!entry) throw new Error(`No job ${jobId}.`);
    if (!isFinishedPhase(entry.snapshot.phase)) throw new Error(`Job ${jobId} is still running.`);
    return this.submit({ ...entry.request, target: target ?? entry.request.target });
  }

  /**
   * A device appeared (plugged in again). If its last job failed part way through an upload, that
   * job is run again on the link the device is on now: the device reports how much it kept and
   * the upload continues from there.
   */
  deviceAttached(serialNumber: string, target?: DeviceTarget): JobSnapshot[] {
    const latest = new Map<string, Entry>();
    for (const entry of this.entries.values())
      if (entry.snapshot.serialNumber === serialNumber) latest.set(entry.request.action, entry);
    const resumed: JobSnapshot[] = [];
    for (const entry of latest.values()) {
      if (entry.snapshot.phase === 'failed' && entry.snapshot.resumable)
        resumed.push(this.retry(entry.snapshot.jobId, target));
    }
    return resumed;
  }

  /**
   * Forgets one finished job (its snapshot, its request, its abort controller): for an owner that
   * has recorded the outcome elsewhere, as the Station's lanes do, so that a shift of hundreds of
   * devices does not keep every job. False when it is unknown or still waiting or running.
   */
  forget(jobId: string): boolean {
    const entry = this.entries.get(jobId);
    if (!entry || !isFinishedPhase(entry.snapshot.phase)) return false;
    return this.entries.delete(jobId);
  }

  /** Forgets finished jobs; returns those that remain. */
  clearFinished(): JobSnapshot[] {
    for (const [jobId, entry] of this.entries) if (isFinishedPhase(entry.snapshot.phase)) this.entries.delete(jobId);
    return this.jobs();
  }

  private deviceKey(entry: Entry): string {
    const { target } = entry.request;
    return target.serialNumber !== undefined
      ? `sn:${target.serialNumber}`
      : `link:${target.kind === 'link' ? target.spec : ''}`;
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.concurrency;) {
      const entry = this.entries.get(this.waiting[i]!);
      if (!entry) {
        this.waiting.splice(i, 1);
        continue;
      }
      const key = this.deviceKey(entry);
      if (this.busyDevices.has(key)) {
        i += 1; // the same device is busy: later jobs for other devices may go first
        continue;
      }
      this.waiting.splice(i, 1);
      this.busyDevices.add(key);
      this.running += 1;
      void this.run(entry).finally(() => {
        this.busyDevices.delete(key);
        this.running -= 1;
        this.pump();
      });
    }
  }

  private update(entry: Entry, change: JobUpdate): void {
    const previous = entry.snapshot;
    const at = this.now().toISOString();
    const next: JobSnapshot = { ...previous, ...change, updatedAt: at };
    if (
      change.steps === undefined &&
      (change.phase !== undefined ||
        change.step !== undefined ||
        change.bytesDone !== undefined ||
        change.resumedFrom !== undefined ||
        change.attempts !== undefined)
    ) {
      next.steps = stepsOnProgress(previous.steps, next, at);
    }
    if (change.phase !== undefined && change.phase !== previous.phase) {
      entry.rate.reset();
      next.rateBytesPerSecond = null;
    }
    // Any progress (a new phase, a byte acknowledged) ends a silence and restarts its measure.
    if (
      (change.phase !== undefined && change.phase !== previous.phase) ||
      (change.bytesDone !== undefined && change.bytesDone !== previous.bytesDone)
    ) {
      entry.lastProgressAt = this.clock();
      if (change.silentSeconds === undefined) next.silentSeconds = null;
    }
    if (typeof next.silentSeconds === 'number') next.rateBytesPerSecond = null;
    if (change.bytesDone !== undefined && (next.phase === 'uploading' || next.phase === 'downloading')) {
      const rate = entry.rate.sample(change.bytesDone, this.clock());
      if (rate !== null) next.rateBytesPerSecond = rate;
    }
    entry.snapshot = next;
    this.progress.update(next);
  }

  private finish(entry: Entry, result: StepResult): void {
    const at = this.now().toISOString();
    this.update(entry, { ...result, finishedAt: at });
    entry.resolve(entry.snapshot);
    for (const listener of [...this.finishedListeners]) {
      try {
        listener(entry.snapshot);
      } catch {
        // one broken listener must not keep the others from hearing
      }
    }
  }

  /** A job step ended: its steps (the step, its read-back, its confirmation) take their final status. */
  private recordResult(entry: Entry, step: 'firmware' | 'configuration', result: StepResult) {
    const steps = stepsOnResult(
      entry.snapshot.steps,
      step,
      result,
      entry.snapshot.serialNumber,
      this.now().toISOString(),
    );
    this.update(entry, { steps });
    return steps;
  }

  /**
   * A transfer whose acknowledgements stopped (a pulled cable, a cut relay) says so within seconds,
   * long before the engine gives up after its retransmissions: the rate and the time left are
   * dropped (they would freeze at their last values), and the seconds of silence count up.
   */
  private checkSilence(entry: Entry): void {
    const { phase } = entry.snapshot;
    if (phase !== 'uploading' && phase !== 'downloading') return;
    const silentMs = this.clock() - entry.lastProgressAt;
    if (silentMs < (this.options.stallNoticeMs ?? STALL_NOTICE_MS)) return;
    const silentSeconds = Math.floor(silentMs / 1000);
    if (entry.snapshot.silentSeconds === silentSeconds) return;
    entry.rate.reset();
    this.update(entry, { silentSeconds });
  }

  private async run(entry: Entry): Promise<void> {
    entry.lastProgressAt = this.clock();
    const silenceWatch = setInterval(() => this.checkSilence(entry), SILENCE_CHECK_MS);
    // The watch alone must not keep a CLI process alive.
    silenceWatch.unref?.();
    try {
      await this.runSteps(entry);
    } finally {
      clearInterval(silenceWatch);
    }
  }

  private async runSteps(entry: Entry): Promise<void> {
    const control: JobControl = {
      jobId: entry.snapshot.jobId,
      signal: entry.controller.signal,
      update: (change) => {
        if (!isFinishedPhase(entry.snapshot.phase)) this.update(entry, change);
      },
    };
    const { request } = entry;
    try {
      const env = await this.options.environment();
      if (entry.controller.signal.aborted) {
        this.finish(entry, {
          steps: stepsOnCancelledBeforeStart(entry.snapshot.steps, this.now().toISOString()),
          phase: 'cancelled',
          outcome: 'cancelled',
          resultMessage: 'cancelled before it started',
          errorCode: 'CANCELLED',
          resumable: false,
          confirmation: 'none',
        });
        return;
      }
      let firmware: StepResult | undefined;
      if (request.action !== 'configuration') {
        firmware = await this.runners.firmware(
          env,
          { target: request.target, source: request.firmware ?? { kind: 'latest' }, force: request.force },
          control,
        );
        this.recordResult(entry, 'firmware', firmware);
        if (request.action === 'firmware' || (firmware.outcome !== 'applied' && firmware.outcome !== 'up-to-date')) {
          this.finish(entry, firmware);
          return;
        }
      }
      const configuration = await this.runners.configuration(
        env,
        { target: request.target, source: request.configuration ?? { kind: 'service' } },
        control,
      );
      const steps = this.recordResult(entry, 'configuration', configuration);
      if (isNotApplicable(configuration)) {
        // Nothing was sent for the configuration: the job is not a failure (a firmware it installed
        // stays installed), and its line says step by step what was done and what was not.
        // The job's confirmation is the firmware's: the configuration step had none to make.
        this.finish(entry, {
          ...(firmware ? combine(firmware, configuration) : configuration),
          phase: 'done',
          outcome: 'partial',
          resultMessage: stepsLine(steps),
          confirmation: firmware?.confirmation ?? 'none',
          steps,
        });
        return;
      }
      this.finish(entry, firmware ? combine(firmware, configuration) : configuration);
    } catch (error) {
      // A bug in a step, not a device failure: it ends this job only.
      const failed: StepResult = {
        phase: 'failed',
        outcome: 'failed',
        resultMessage: `internal error: ${error instanceof Error ? error.message : String(error)}`,
        errorCode: 'INTERNAL',
        resumable: false,
        confirmation: 'none',
      };
      this.finish(entry, {
        ...failed,
        steps: stepsOnResult(
          entry.snapshot.steps,
          entry.snapshot.step,
          failed,
          entry.snapshot.serialNumber,
          this.now().toISOString(),
        ),
      });
    }
  }
}

/** "Both": the firmware step's result and the configuration step's, as one. */
export function combine(firmware: StepResult, configuration: StepResult): StepResult {
  const confirmations = [firmware.confirmation, configuration.confirmation];
  const configurationFailed = configuration.outcome === 'failed' || configuration.outcome === 'cancelled';
  // A failed job's line ends "(failure <confirmation>)", which must speak for the configuration
  // step that failed: a technician must not read "failure confirmed" when only the firmware was.
  // The firmware step's own confirmation is then said beside its result.
  const firmwareWords = confirmationWords(firmware.confirmation);
  const firmwarePart =
    configurationFailed && firmwareWords ? `${firmware.resultMessage} (${firmwareWords})` : firmware.resultMessage;
  return {
    ...configuration,
    firmwareVersion: firmware.firmwareVersion ?? null,
    resultMessage: `${firmwarePart}; ${configuration.resultMessage}`,
    confirmation: configurationFailed
      ? configuration.confirmation
      : confirmations.includes('queued')
        ? 'queued'
        : confirmations.includes('sent')
          ? 'sent'
          : 'none',
    notice: [firmware.notice, configuration.notice].filter(Boolean).join(' ') || null,
  };
}
