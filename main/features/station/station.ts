import { stationNoteText, type StationNoteReason } from '../../../domain/station-note';
import type {
  StationEvent,
  StationFirmwarePolicy,
  StationLaneView,
  StationNoteView,
  StationReportView,
  StationShiftView,
  StationView,
} from '../../../contract/station';
import type { DeviceListEvent } from '../../devices/discovery/device-list';
import type { DiscoveredDevice } from '../../devices/discovery/discovered-device';
import type { DeviceTarget } from '../../engine/jobs/device-port';
import type { JobSnapshot } from '../../engine/jobs/job-state';
import type { JobsEngine } from '../../engine/jobs/jobs-engine';
import { transferPercent } from '../../engine/jobs/progress-text';
import { allStepsDone, stepsLine } from '../../../domain/job-steps';
import { shortChecksum } from '../../../domain/running-parameters';
import { keptApartText, parametersDifferReason, type KeptApartReason } from '../../../domain/station-kept-apart';
import { departureFromShift, type ShiftParameters } from '../../../domain/shift-parameters';
import { phaseText } from '../../../domain/job-text';
import type { FailureReason } from '../../../domain/job-failure';
import { stationCounts, yieldPercent } from './counts';
import { stationAdviceFor, stationAdviceText } from '../../../domain/station-advice';
import type { ShiftVerificationRecorder } from './shift-parameters';
import type { Lane } from './lane';
import { laneJob } from './lane-job';
import type { StationRoster } from './roster';
import type { CommissioningReportWriter } from './commissioning-report';
import { shiftReportPath, shiftReportRows, writeShiftReport } from './shift-report';
import type { SyncCheck } from './sync-check';
import { tileText } from './tile-text';

/** Arrivals and departures of devices: the live device list (USB hot-plug, BLE in range, IP found by multicast). */
export interface StationDevices {
  on(listener: (event: DeviceListEvent) => void): () => void;
  devices(): DiscoveredDevice[];
}

/** The jobs engine (main/engine/jobs) the station hands its devices to: the same queue, jobs and confirmations as every other job. */
export type StationJobs = Pick<
  JobsEngine,
  'start' | 'cancel' | 'wait' | 'forget' | 'onProgress' | 'onFinished' | 'deviceAttached'
>;

/**
 * The shift's parameter check (issue 26): what the operator confirmed at the start, against which
 * every device of the shift is verified automatically, and where each verification is recorded.
 */
export interface StationParameterCheck {
  shift: ShiftParameters;
  /** Who confirmed it, the checksum's short form and when, as the screen and `--json` show it. */
  confirmation: StationShiftView;
  record: ShiftVerificationRecorder;
}

export interface StationOptions {
  roster: StationRoster;
  devices: StationDevices;
  jobs: StationJobs;
  checkSync: SyncCheck;
  /** Devices worked on at once. */
  lanes: number;
  firmware: StationFirmwarePolicy;
  /** Where the shift report is written: this file, or a new one under `reportDir`. */
  reportDir: string;
  reportPath?: string;
  /** Writes the configuration's commissioning report beside the shift report at the stop. */
  commissioningReport?: CommissioningReportWriter;
  now?: () => Date;
  /** A step of the station's own that failed (the sync check, a ledger write): said, never thrown. */
  onWarning?: (message: string) => void;
  /**
   * The shift's confirmed parameters. With it, every device is verified, those found in sync
   * included, and one that does not run what was confirmed fails and is kept apart. The hosts
   * always give it; without it (unit tests of the lanes) devices in sync are left alone unverified.
   */
  parameters?: StationParameterCheck;
}

/** How many progress events an upload makes: one every this many percent. */
const PROGRESS_STEP_PERCENT = 10;
/** Notes the view keeps (the report keeps them all). */
const VIEW_NOTES = 30;
const TILE_ORDER: Record<Lane['state'], number> = { working: 0, failed: 1, waiting: 2, done: 3, 'in-sync': 4 };

/**
 * A production station for one configuration: every device of it that is plugged in is
 * provisioned by the jobs engine (firmware if behind, configuration, read-back, confirmation), at
 * most `lanes` at once, each on its own (one failing never stops another). A device not in the
 * configuration is refused, a serial number seen twice in the shift is flagged, a device already
 * in sync is left alone. Runs until stop(), which writes the shift report.
 */
export class Station {
  private readonly lanes = new Map<string, Lane>();
  private readonly queue: string[] = [];
  private readonly laneOfJob = new Map<string, string>();
  private readonly notes: StationNoteView[] = [];
  /** Links of refused devices still plugged in: a device is refused once per plug, not per list change. */
  private readonly refusedLinks = new Set<string>();
  /** Links of devices flagged as a copy of a serial number, while they stay plugged in: their readings are not believed. */
  private readonly duplicateLinks = new Set<string>();
  private readonly listeners = new Set<(event: StationEvent) => void>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly now: () => Date;
  private readonly startedAt: string;
  private running = false;
  private report: StationReportView | null = null;
  private pendingChecks = new Set<Promise<void>>();
  private stopping: Promise<StationReportView> | null = null;

  constructor(private readonly options: StationOptions) {
    this.now = options.now ?? (() => new Date());
    this.startedAt = this.now().toISOString();
  }

  on(listener: (event: StationEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts listening for devices; those plugged in already arrive first. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const { roster } = this.options;
    const shift = this.options.parameters?.confirmation;
    this.emit({
      event: 'station-started',
      configurationName: roster.configurationName,
      configurationSize: roster.devices.size,
      lanes: this.options.lanes,
      firmware: this.options.firmware,
      ...(shift ? { shift } : {}),
    });
    this.unsubscribe.push(this.options.jobs.onProgress((batch) => this.progressed(batch)));
    this.unsubscribe.push(this.options.jobs.onFinished((job) => this.finished(job)));
    this.unsubscribe.push(this.options.devices.on((event) => this.deviceEvent(event)));
    for (const device of this.options.devices.devices()) this.arrived(device);
  }

  /** A link the station's job is using: discovery neither probes nor drops it. */
  isBusy(link: string): boolean {
    for (const lane of this.lanes.values()) if (lane.link === link && lane.state === 'working') return true;
    return false;
  }

  /** Resolves once no sync check is running (tests, and stop). */
  async settled(): Promise<void> {
    while (this.pendingChecks.size > 0) await Promise.all([...this.pendingChecks]);
  }

  /**
   * Stops taking devices, cancels the jobs still running (an interrupted upload resumes at the next
   * plug), waits for them to end and writes the shift report, then the commissioning report.
   */
  stop(): Promise<StationReportView> {
    // A second stop while the first writes the reports waits for the same reports.
    this.stopping ??= this.stopAndReport();
    return this.stopping;
  }

  private async stopAndReport(): Promise<StationReportView> {
    this.running = false;
    await this.settled();
    const working = [...this.lanes.values()].filter((lane) => lane.state === 'working' && lane.job);
    // Asked for before the cancel: a job cancelled before it started ends (and is forgotten) at once.
    const ended = working.map((lane) => this.options.jobs.wait(lane.job!.jobId).catch(() => undefined));
    for (const lane of working) this.options.jobs.cancel(lane.job!.jobId);
    await Promise.all(ended);
    for (const off of this.unsubscribe.splice(0)) off();
    // The ledger writes of the last verifications, before the reports read the ledger.
    await this.settled();
    const path =
      this.options.reportPath ??
      shiftReportPath(this.options.reportDir, {
        configurationName: this.options.roster.configurationName,
        startedAt: this.startedAt,
      });
    const rows = shiftReportRows([...this.lanes.values()], this.notes);
    await writeShiftReport(path, rows);
    const commissioning = this.options.commissioningReport ? await this.options.commissioningReport(path) : null;
    if (commissioning?.error) this.options.onWarning?.(commissioning.error);
    this.report = { path, rows: rows.length, commissioning };
    const counts = this.counts();
    this.emit({ event: 'station-stopped', yieldPercent: yieldPercent(counts), report: this.report });
    return this.report;
  }

  view(): StationView {
    const counts = this.counts();
    const tiles = [...this.lanes.values()]
      .filter((lane) => lane.present || lane.state === 'working')
      .sort((a, b) => TILE_ORDER[a.state] - TILE_ORDER[b.state] || a.serialNumber.localeCompare(b.serialNumber))
      .map((lane) => this.laneView(lane));
    return {
      running: this.running,
      configurationName: this.options.roster.configurationName,
      configurationSize: this.options.roster.devices.size,
      lanes: this.options.lanes,
      firmware: this.options.firmware,
      startedAt: this.startedAt,
      counts,
      yieldPercent: yieldPercent(counts),
      tiles,
      notes: this.notes.slice(-VIEW_NOTES).reverse(),
      report: this.report,
      shift: this.options.parameters?.confirmation ?? null,
    };
  }

  private laneView(lane: Lane): StationLaneView {
    const text = tileText(lane);
    const job = lane.job;
    const uploading =
      lane.state === 'working' && job !== null && (job.phase === 'uploading' || job.phase === 'downloading');
    return {
      serialNumber: lane.serialNumber,
      deviceType: lane.deviceType,
      protocol: lane.protocol,
      link: lane.link,
      state: lane.state,
      step: lane.state === 'working' && job ? job.step : null,
      phase: lane.state === 'working' && job ? job.phase : null,
      percent: uploading ? transferPercent(job) : null,
      headline: text.headline,
      detail: text.detail,
      action: text.action,
      advice: lane.state === 'failed' ? lane.advice : null,
      failureReason: laneFailureReason(lane),
      keptApart: lane.state === 'failed' ? lane.keptApart : null,
      errorCode: lane.state === 'failed' ? (job?.errorCode ?? null) : null,
      present: lane.present,
      firmwareVersion: job?.firmwareVersion ?? lane.firmwareBefore,
      syncId: job?.syncId ?? null,
      jobId: job?.jobId ?? null,
      startedAt: lane.startedAt,
      finishedAt: lane.finishedAt,
    };
  }

  private counts() {
    return stationCounts(this.lanes.values(), {
      refused: this.notes.filter((n) => n.kind === 'refused').length,
      duplicate: this.notes.filter((n) => n.kind === 'duplicate').length,
    });
  }

  private emit(event: DistributiveOmit<StationEvent, 'at' | 'counts'>): void {
    const full = { at: this.now().toISOString(), counts: this.counts(), ...event } as StationEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(full);
      } catch {
        // One broken listener (a closed window) must not stop the station or the others.
      }
    }
  }

  private deviceEvent(event: DeviceListEvent): void {
    if (!this.running) return;
    if (event.type === 'added') this.arrived(event.device);
    else if (event.type === 'removed') this.departed(event.device);
    else if (event.type === 'returned') this.returned(event.device);
  }

  /**
   * Its port went and came back within the device list's grace: a person who unplugs a failed
   * device and plugs it in again at once means a retry, as much as one who waits. A working lane's
   * device is rebooting or reconnecting for its job, which waits for it itself.
   */
  private returned(device: DiscoveredDevice): void {
    const lane = this.lanes.get(device.serialNumber);
    if (!lane || lane.link !== device.link || !lane.present || lane.state !== 'failed') return;
    this.retry(lane);
  }

  private note(kind: StationNoteView['kind'], device: DiscoveredDevice, why: StationNoteReason): void {
    const message = stationNoteText(why);
    this.notes.push({
      kind,
      serialNumber: device.serialNumber,
      link: device.link,
      message,
      why,
      at: this.now().toISOString(),
    });
    this.emit({ event: kind, serialNumber: device.serialNumber, link: device.link, reason: message, why });
  }

  private arrived(device: DiscoveredDevice): void {
    const { roster } = this.options;
    const serial = device.serialNumber;
    if (!roster.devices.has(serial)) {
      if (this.refusedLinks.has(device.link)) return;
      this.refusedLinks.add(device.link);
      this.note('refused', device, { kind: 'notInConfiguration', serial, configuration: roster.configurationName });
      return;
    }
    const lane = this.lanes.get(serial);
    if (lane) {
      this.arrivedAgain(lane, device);
      return;
    }
    const fresh: Lane = {
      serialNumber: serial,
      deviceType: device.deviceType,
      protocol: device.protocol ?? null,
      link: device.link,
      state: 'waiting',
      present: true,
      job: null,
      reason: null,
      action: null,
      advice: null,
      firmwareBefore: device.firmwareVersion,
      verifyOnly: false,
      keptApart: null,
      attempts: 0,
      startedAt: this.now().toISOString(),
      finishedAt: null,
    };
    this.lanes.set(serial, fresh);
    this.track(this.checkThenQueue(fresh, device));
  }

  /**
   * Whether what this device reports may be taken as the word of its serial number. Not when the
   * station flags it as a copy: a second device with the serial of one on the station now, or of
   * one finished in this shift. The core confirms what it reads of every attached device to the
   * service; a copy's reading (old firmware, no configuration) would make the service record the
   * real, provisioned device as running what the copy runs.
   */
  speaksForItsSerial(device: Pick<DiscoveredDevice, 'serialNumber' | 'link'>): boolean {
    if (this.duplicateLinks.has(device.link)) return false;
    const lane = this.running ? this.lanes.get(device.serialNumber) : undefined;
    return !lane || duplicateReason(lane, device) === null;
  }

  /** The same serial number again: back after a pull, a retry after a failure, or a second plug in the shift. */
  private arrivedAgain(lane: Lane, device: DiscoveredDevice): void {
    if (lane.link === device.link && lane.present) return;
    const duplicate = duplicateReason(lane, device);
    if (duplicate) {
      this.duplicateLinks.add(device.link);
      this.note('duplicate', device, duplicate);
      return;
    }
    lane.present = true;
    lane.link = device.link;
    if (lane.state === 'failed') this.retry(lane);
    // Working: the job waits for the device itself (reconnect) and resumes its upload.
  }

  /** A failed lane's device plugged in again: it waits for a lane, and its next job resumes a kept upload. */
  private retry(lane: Lane): void {
    lane.state = 'waiting';
    lane.finishedAt = null;
    this.emit({ event: 'waiting', serialNumber: lane.serialNumber, link: lane.link });
    this.queue.push(lane.serialNumber);
    this.pump();
  }

  private async checkThenQueue(lane: Lane, device: DiscoveredDevice): Promise<void> {
    try {
      const sync = await this.options.checkSync(device);
      if (sync.state === 'in-sync' && this.options.parameters) {
        // The syncId says which file it took, not what it runs: its parameters are verified still.
        lane.verifyOnly = true;
        lane.reason = sync.text;
      } else if (sync.state === 'in-sync') {
        lane.state = 'in-sync';
        lane.reason = sync.text;
        lane.finishedAt = this.now().toISOString();
        this.emit({
          event: 'in-sync',
          serialNumber: lane.serialNumber,
          link: lane.link,
          text: `${lane.serialNumber} already runs firmware ${device.firmwareVersion} and holds the current configuration: left alone`,
        });
        return;
      }
    } catch (error) {
      // The check only saves work: without it the job finds out itself (up to date, same file).
      this.options.onWarning?.(
        `Could not check whether ${lane.serialNumber} is in sync (${(error as Error).message}); provisioning it.`,
      );
    }
    if (!this.running || !lane.present) return;
    this.emit({ event: 'waiting', serialNumber: lane.serialNumber, link: lane.link });
    this.queue.push(lane.serialNumber);
    this.pump();
  }

  private track(check: Promise<void>): void {
    this.pendingChecks.add(check);
    void check.finally(() => this.pendingChecks.delete(check));
  }

  private activeLanes(): number {
    let n = 0;
    for (const lane of this.lanes.values()) if (lane.state === 'working') n += 1;
    return n;
  }

  private pump(): void {
    while (this.running && this.queue.length > 0 && this.activeLanes() < this.options.lanes) {
      const lane = this.lanes.get(this.queue.shift()!);
      if (lane && lane.state === 'waiting' && lane.present) this.startLane(lane);
    }
  }

  private startLane(lane: Lane): void {
    const target: DeviceTarget = { kind: 'link', spec: lane.link, serialNumber: lane.serialNumber };
    const previous = lane.job;
    // A failed upload the device kept part of continues where it stopped (the queue's resume).
    const resumed =
      previous && previous.phase === 'failed' && previous.resumable
        ? this.options.jobs.deviceAttached(lane.serialNumber, target)[0]
        : undefined;
    const action = this.options.firmware === 'latest' && !lane.verifyOnly ? 'both' : 'configuration';
    const job = resumed ?? this.options.jobs.start([{ action, target }])[0]!;
    // The failed job was kept for its resume only: the lane's record now follows the new one.
    if (previous) this.options.jobs.forget(previous.jobId);
    lane.state = 'working';
    lane.job = laneJob(job);
    lane.reason = null;
    lane.action = null;
    lane.advice = null;
    lane.keptApart = null;
    lane.attempts += 1;
    this.laneOfJob.set(job.jobId, lane.serialNumber);
    this.emit({
      event: 'lane-started',
      serialNumber: lane.serialNumber,
      link: lane.link,
      jobId: job.jobId,
      resumed: resumed !== undefined,
    });
  }

  private laneOf(job: JobSnapshot): Lane | undefined {
    const serial = this.laneOfJob.get(job.jobId);
    const lane = serial === undefined ? undefined : this.lanes.get(serial);
    return lane && lane.job?.jobId === job.jobId ? lane : undefined;
  }

  private progressed(batch: readonly JobSnapshot[]): void {
    for (const job of batch) {
      const lane = this.laneOf(job);
      if (
        !lane ||
        lane.state !== 'working' ||
        job.phase === 'done' ||
        job.phase === 'failed' ||
        job.phase === 'cancelled'
      )
        continue;
      const before = lane.job;
      lane.job = laneJob(job);
      if (job.deviceType) lane.deviceType = job.deviceType;
      if (!before || before.step !== job.step || before.phase !== job.phase) {
        this.emit({
          event: 'step',
          serialNumber: lane.serialNumber,
          step: job.step,
          phase: job.phase,
          text: phaseText(job.phase, job.step, { version: job.firmwareVersion }),
        });
      }
      if (job.phase === 'uploading') {
        const percent = transferPercent(job);
        const was = before && before.phase === 'uploading' && before.step === job.step ? transferPercent(before) : null;
        if (
          percent !== null &&
          (was === null || Math.floor(percent / PROGRESS_STEP_PERCENT) > Math.floor(was / PROGRESS_STEP_PERCENT))
        ) {
          this.emit({
            event: 'progress',
            serialNumber: lane.serialNumber,
            step: job.step,
            percent: Math.floor(percent),
          });
        }
      }
    }
  }

  private finished(job: JobSnapshot): void {
    const lane = this.laneOf(job);
    if (!lane) return;
    this.laneOfJob.delete(job.jobId);
    lane.job = laneJob(job);
    // The lane holds what the shift's record needs; the engine need not keep the job, but for a
    // failed upload the device kept part of: its next plug resumes it (startLane).
    if (!(job.phase === 'failed' && job.resumable)) this.options.jobs.forget(job.jobId);
    lane.finishedAt = job.finishedAt ?? this.now().toISOString();
    // Done only when every step did its work: a job that installed the firmware but skipped the
    // configuration is not a device to unplug as finished. With a shift's confirmed parameters,
    // only when it runs exactly what the operator confirmed.
    const stepsDone = job.phase === 'done' && allStepsDone(job.steps);
    const departure = stepsDone ? this.departureFromShift(lane, job) : null;
    if (stepsDone && departure === null) {
      this.recordVerification(lane, job, true);
      if (lane.verifyOnly) {
        const checksum = job.parameters
          ? `, parameters verified (checksum ${shortChecksum(job.parameters.runningChecksum)})`
          : '';
        lane.state = 'in-sync';
        lane.reason = `${lane.reason ?? 'in sync'}${checksum}`;
        this.emit({
          event: 'in-sync',
          serialNumber: lane.serialNumber,
          link: lane.link,
          text: `${lane.serialNumber} already runs firmware ${job.firmwareVersion ?? lane.firmwareBefore ?? '?'} and holds the current configuration${checksum}: left alone`,
        });
      } else {
        lane.state = 'done';
        this.emit({
          event: 'done',
          serialNumber: lane.serialNumber,
          link: lane.link,
          firmwareVersion: job.firmwareVersion,
          syncId: job.syncId,
          text: job.resultMessage ?? 'done',
        });
      }
    } else {
      this.recordVerification(lane, job, false);
      lane.state = 'failed';
      const steps = job.steps.some((step) => step.status !== 'not-started') ? stepsLine(job.steps) : '';
      const differs = job.errorCode === 'PARAMETERS_MISMATCH' && job.parameters !== null;
      lane.keptApart = departure ?? (differs ? parametersDifferReason(job.parameters!) : null);
      // A difference is said as the rows that differ, in words and units: the steps' line repeats the advice the action gives.
      lane.reason = lane.keptApart
        ? keptApartText(lane.keptApart)
        : steps || job.resultMessage || (job.phase === 'cancelled' ? 'stopped with the station' : 'failed');
      lane.advice = departure !== null ? { kind: 'shiftChanged' } : stationAdviceFor(job);
      lane.action = stationAdviceText(lane.advice);
      const errorCode = departure !== null ? 'PARAMETERS_NOT_CONFIRMED' : job.errorCode;
      this.emit({
        event: 'failed',
        serialNumber: lane.serialNumber,
        link: lane.link,
        errorCode,
        reason: lane.reason,
        failureReason: laneFailureReason(lane),
        keptApart: lane.keptApart,
        action: lane.action,
        advice: lane.advice,
        resumable: job.resumable,
      });
    }
    this.pump();
  }

  /**
   * Why the shift's confirmation does not cover what this finished job verified, or null when it
   * does (or the station checks no parameters). The job compared the device with the file it
   * fetched; the operator confirmed the files of the shift's start: a newer file is not confirmed.
   */
  private departureFromShift(lane: Lane, job: JobSnapshot): KeptApartReason | null {
    const check = this.options.parameters;
    if (!check) return null;
    const device = check.shift.devices.find((d) => d.serialNumber === lane.serialNumber);
    if (!device) return { kind: 'notInShift' };
    if (!job.parameters) return { kind: 'notReadBack' };
    return departureFromShift(device, job.parameters);
  }

  /** The device's verification into the ledger, naming the operator; confirmed by the shift only when it matched what was confirmed. */
  private recordVerification(lane: Lane, job: JobSnapshot, confirmedByShift: boolean): void {
    const check = this.options.parameters;
    if (!check || !job.parameters || !job.syncId) return;
    const verified = {
      serialNumber: lane.serialNumber,
      link: job.link ?? lane.link,
      syncId: job.syncId,
      comparison: job.parameters,
    };
    this.track(
      check.record(verified, confirmedByShift && job.parameters.match).catch((error: unknown) => {
        this.options.onWarning?.(
          `The parameter verification of ${lane.serialNumber} could not be written to the ledger: ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
    );
  }

  private departed(device: DiscoveredDevice): void {
    this.refusedLinks.delete(device.link);
    this.duplicateLinks.delete(device.link);
    const lane = this.lanes.get(device.serialNumber);
    if (!lane || lane.link !== device.link || !lane.present) return;
    lane.present = false;
    if (lane.state === 'waiting') {
      const index = this.queue.indexOf(lane.serialNumber);
      if (index >= 0) this.queue.splice(index, 1);
      // Never started: as if it had not come. A failed one waiting for its retry stays failed.
      if (lane.attempts === 0) this.lanes.delete(lane.serialNumber);
      else lane.state = 'failed';
    }
    this.emit({ event: 'unplugged', serialNumber: lane.serialNumber, link: lane.link, state: lane.state });
  }
}

/**
 * Why a device with the serial number of this lane is a copy, or null when it is the lane's own
 * device (back after a pull, or a retry after a failure). A serial on the station now under
 * another link is a second device; one finished in this shift is left alone, as it may be a copy.
 */
function duplicateReason(
  lane: Lane,
  device: Pick<DiscoveredDevice, 'serialNumber' | 'link'>,
): StationNoteReason | null {
  const serial = device.serialNumber;
  if (lane.present) {
    if (lane.link === device.link) return null;
    return { kind: 'pluggedTwice', serial, otherLink: lane.link };
  }
  if (lane.state === 'done' || lane.state === 'in-sync') {
    const at = (lane.finishedAt ?? lane.startedAt).slice(11, 16);
    return { kind: lane.state === 'done' ? 'alreadyProvisioned' : 'alreadyInSync', serial, at };
  }
  return null;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * Why a failed lane's job failed, as codes and values, for readers of other languages; null when
 * the lane failed for the shift's own reasons (it is kept apart: parameters that differ or that no
 * one confirmed), which `keptApart` says as codes and values.
 */
function laneFailureReason(lane: Lane): FailureReason | null {
  if (lane.state !== 'failed' || lane.keptApart) return null;
  return lane.job?.failureReason ?? null;
}
