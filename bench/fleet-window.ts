import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { JobSnapshot, JobsEngine } from '../main/engine/jobs';
import type { FleetDevices } from './fleet-devices';

/** What the fleet bench measures between the first upload starting and the last one ending. */
export interface UploadWindow {
  uploadSeconds: number;
  /** CPU seconds per MiB delivered in the window: this process (the host), the simulator, socat. */
  hostCpuPerMiB: number;
  devicesCpuPerMiB: number;
  socatCpuPerMiB: number;
  /** Share of the window this process's event loop was busy (performance.eventLoopUtilization). */
  loopUtilization: number;
  /** How late this process's timers fired in the window (perf_hooks.monitorEventLoopDelay). */
  loopDelayMs: { p50: number; p99: number; max: number };
  /**
   * The window on the monotonic clock in microseconds (process.hrtime), the clock of a `node
   * --cpu-prof` profile's timestamps: to read the profile of the window alone.
   */
  windowMicroseconds: [number, number];
}

/**
 * The histogram's samples are the time between its timer's turns, the sampling interval included
 * (an idle loop reads 10 ms at a 10 ms resolution): the delay is what exceeds the interval.
 */
const LOOP_SAMPLING_MS = 10;
const lateness = (ns: number) => Math.max(0, ns / 1e6 - LOOP_SAMPLING_MS);

interface Sample {
  at: number;
  monotonicUs: number;
  host: NodeJS.CpuUsage;
  sides: { devices: number; socat: number };
  loop: EventLoopUtilization;
}

/**
 * Watches a fleet run's progress and samples each side's CPU and this process's event loop when
 * the first upload starts and when the last one ends: the upload window, where the work is the
 * links' and nothing else's (no connecting, applying or confirming).
 */
export function measureUploadWindow(
  engine: JobsEngine,
  devices: FleetDevices,
  count: number,
): { result(deliveredBytes: number): UploadWindow } {
  const delay = monitorEventLoopDelay({ resolution: LOOP_SAMPLING_MS });
  const sample = (): Sample => ({
    at: performance.now(),
    monotonicUs: Number(process.hrtime.bigint() / 1000n),
    host: process.cpuUsage(),
    sides: devices.cpu(),
    loop: performance.eventLoopUtilization(),
  });
  const uploading = new Set<string>();
  const ended = new Set<string>();
  let start: Sample | undefined;
  let end: Sample | undefined;
  const unsubscribe = engine.onProgress((batch: JobSnapshot[]) => {
    for (const job of batch) {
      if (job.phase === 'uploading' && !uploading.has(job.jobId)) {
        uploading.add(job.jobId);
        if (start === undefined) {
          start = sample();
          delay.enable();
        }
      }
      if (job.phase !== 'uploading' && uploading.has(job.jobId)) ended.add(job.jobId);
    }
    // A job that failed before uploading never ends one: the window closes when the jobs settle.
    if (end === undefined && start !== undefined && ended.size === count) {
      end = sample();
      delay.disable();
    }
  });
  return {
    result(deliveredBytes) {
      unsubscribe();
      if (end === undefined) {
        end = sample();
        delay.disable();
      }
      const first = start ?? end;
      const mib = deliveredBytes / (1024 * 1024);
      const hostSeconds = (end.host.user + end.host.system - (first.host.user + first.host.system)) / 1e6;
      return {
        uploadSeconds: (end.at - first.at) / 1000,
        windowMicroseconds: [first.monotonicUs, end.monotonicUs],
        hostCpuPerMiB: hostSeconds / mib,
        devicesCpuPerMiB: (end.sides.devices - first.sides.devices) / mib,
        socatCpuPerMiB: (end.sides.socat - first.sides.socat) / mib,
        loopUtilization: performance.eventLoopUtilization(end.loop, first.loop).utilization,
        loopDelayMs: {
          p50: lateness(delay.percentile(50)),
          p99: lateness(delay.percentile(99)),
          max: lateness(delay.max),
        },
      };
    },
  };
}
