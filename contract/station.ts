import type { StationNoteReason } from '../domain/station-note';
import type { StationAdvice } from '../domain/station-advice';
import { z } from 'zod';
import type { FailureReason } from '../domain/job-failure';
import type { KeptApartReason } from '../domain/station-kept-apart';
import type { JobPhase, JobStep } from '../domain/jobs';
import { command, noInput, query } from './channel-spec';
import { nonEmpty } from './inputs';
import { reportLanguageSchema } from './accountability';

/**
 * Station mode: a production station that provisions every device of one configuration that is
 * plugged in, several lanes at once. These are the views the Station screen shows and the events
 * `provisioner station --json` streams (one a line), so a line-control system and the screen read
 * the same words.
 */

/** Where a device's lane stands. */
export type StationLaneState =
  /** Plugged in and in the configuration; waits for a free lane (or for the sync check). */
  | 'waiting'
  /** A job runs on it: firmware, configuration, read-back, confirmation. */
  | 'working'
  /** Provisioned and confirmed: unplug it. */
  | 'done'
  /** Its job failed: `reason` says why, `action` what to do. */
  | 'failed'
  /** It already ran the latest firmware and held the current configuration: left alone. */
  | 'in-sync';

export interface StationLaneView {
  serialNumber: string;
  deviceType: string | null;
  /** Which protocol it speaks: ours, or the vendor's (shown as "FORT protocol"); null when not told. */
  protocol: 'provisioner' | 'vendor' | null;
  /** The link the device is on: 'serial:/dev/ttyACM0', 'udp:…', 'ble:…'. */
  link: string;
  state: StationLaneState;
  step: JobStep | null;
  phase: JobPhase | null;
  /** Of the current upload; null when nothing is being uploaded. */
  percent: number | null;
  /** The tile's big line, readable from two metres: "Firmware 42%", "Done, unplug me", "Failed". */
  headline: string;
  /** Why it failed, or what was done. */
  detail: string | null;
  /** What to do now (failed, or done: unplug it). */
  action: string | null;
  /** Failed: `action` as a code, for the screen to say in the reader's language (stationAdviceText); absent from an older core. */
  advice?: StationAdvice | null;
  /**
   * Failed: why, as codes and values, for the screen to say in the reader's language
   * (jobFailureText, domain/job-text.ts); `detail` keeps the core's English. Null when the job sent
   * no reason or the lane failed for the shift's own reasons (parameters not confirmed, differing).
   */
  failureReason?: FailureReason | null;
  /**
   * Failed and kept apart: why, as codes and values (the rows that differ), for the screen to say
   * in the reader's language (keptApartText); `detail` keeps the core's English. Null otherwise.
   */
  keptApart?: KeptApartReason | null;
  /** Failed: the job's error code; null otherwise. */
  errorCode?: string | null;
  /** Still plugged in. */
  present: boolean;
  firmwareVersion: string | null;
  syncId: string | null;
  jobId: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** A plugged device the station does not work on, and why. */
export interface StationNoteView {
  kind: 'refused' | 'duplicate';
  serialNumber: string;
  link: string;
  /** In English, for --json, the shift report and logs. */
  message: string;
  /** `message` as a code and values, for the screen to say in the reader's language (stationNoteText); absent from an older core. */
  why?: StationNoteReason;
  at: string;
}

export interface StationCounts {
  done: number;
  failed: number;
  waiting: number;
  working: number;
  inSync: number;
  refused: number;
  duplicate: number;
}

export interface StationView {
  running: boolean;
  configurationName: string | null;
  /** Devices the configuration holds. */
  configurationSize: number;
  lanes: number;
  firmware: StationFirmwarePolicy;
  startedAt: string | null;
  counts: StationCounts;
  /** Done out of done and failed, in percent (each device by its last outcome); null before any finished. */
  yieldPercent: number | null;
  tiles: StationLaneView[];
  notes: StationNoteView[];
  /** The shift report of the last stop. */
  report: StationReportView | null;
  /** Who confirmed the configuration's parameters at the start of the shift, and which checksum; null before a start. */
  shift: StationShiftView | null;
}

/** The operator's confirmation of the shift (issue 26): every device of the shift is verified against it. */
export interface StationShiftView {
  operator: string;
  /** The configuration's parameter checksum, short (8 hex digits). */
  checksumShort: string;
  confirmedAt: string;
}

/**
 * What the operator confirms before the shift starts: each device's intended parameters in plain
 * words and units, its intended checksum, and the configuration's parameter checksum, whose short
 * form the operator types (domain/shift-parameters.ts).
 */
export interface StationShiftParametersView {
  configurationName: string;
  checksumShort: string;
  devices: Array<{
    serialNumber: string;
    deviceType: string;
    checksumShort: string;
    rows: Array<{ key: string; group: string; label: string; intended: string }>;
  }>;
}

export interface StationReportView {
  /** The shift report (CSV). */
  path: string;
  rows: number;
  /**
   * The commissioning report of the configuration (PDF) written beside it: its path, or why it
   * could not be made; null when this station does not write one.
   */
  commissioning: { path: string; error: null } | { path: null; error: string } | null;
}

/** `latest`: install the service's latest firmware when the device runs older; `keep`: configuration only. */
export type StationFirmwarePolicy = 'latest' | 'keep';
export const STATION_FIRMWARE_POLICIES = ['latest', 'keep'] as const satisfies readonly StationFirmwarePolicy[];

export const STATION_MAX_LANES = 16;

/** One event of a shift, as `--json` streams it (one per line). Every event carries the counts after it. */
export type StationEvent = { at: string; counts: StationCounts } & (
  | {
      event: 'station-started';
      configurationName: string;
      configurationSize: number;
      lanes: number;
      firmware: StationFirmwarePolicy;
      shift?: StationShiftView;
    }
  | { event: 'waiting'; serialNumber: string; link: string }
  | { event: 'lane-started'; serialNumber: string; link: string; jobId: string; resumed: boolean }
  | { event: 'step'; serialNumber: string; step: JobStep; phase: JobPhase; text: string }
  | { event: 'progress'; serialNumber: string; step: JobStep; percent: number }
  | {
      event: 'done';
      serialNumber: string;
      link: string;
      firmwareVersion: string | null;
      syncId: string | null;
      text: string;
    }
  | {
      event: 'failed';
      serialNumber: string;
      link: string;
      errorCode: string | null;
      reason: string;
      /** `reason` as codes and values, for a reader of another language; null as in StationLaneView. */
      failureReason?: FailureReason | null;
      /** `reason` as codes and values when the lane is kept apart; null otherwise. */
      keptApart?: KeptApartReason | null;
      action: string;
      /** `action` as a code, for a reader of another language. */
      advice?: StationAdvice | null;
      resumable: boolean;
    }
  | { event: 'refused'; serialNumber: string; link: string; reason: string; why?: StationNoteReason }
  | { event: 'duplicate'; serialNumber: string; link: string; reason: string; why?: StationNoteReason }
  | { event: 'in-sync'; serialNumber: string; link: string; text: string }
  | { event: 'unplugged'; serialNumber: string; link: string; state: StationLaneState }
  | { event: 'station-stopped'; yieldPercent: number | null; report: StationReportView | null }
);

/** Station mode: provision whatever of one configuration is plugged in. */
export const STATION_CHANNELS = {
  'station.view': query(noInput).returns<StationView>(),
  /** The configuration's intended parameters and checksum, for the operator to confirm before the start. */
  'station.parameters': query(
    z.object({ configurationName: nonEmpty.max(200) }).strict(),
  ).returns<StationShiftParametersView>(),
  /**
   * Starts the shift: the operator's own name and the configuration checksum's short form as they
   * typed it; refused unless it is the configuration's (computed again at the start).
   */
  'station.start': command(
    z
      .object({
        configurationName: nonEmpty.max(200),
        lanes: z.number().int().min(1).max(STATION_MAX_LANES).default(4),
        firmware: z.enum(STATION_FIRMWARE_POLICIES).default('latest'),
        operator: nonEmpty.max(200),
        checksum: z.string().max(32),
        // The language of the commissioning report written at the stop (the app's); English when not given.
        language: reportLanguageSchema.optional(),
        // The shift report's file, named by a command-line run (`provisioner station --report`); the
        // app refuses it: its reports go under its data directory, and a renderer names no path.
        reportPath: z.string().min(1).max(4096).optional(),
      })
      .strict(),
  ).returns<StationView>(),
  'station.stop': command(noInput).returns<StationView>(),
} as const;
export type StationChannel = keyof typeof STATION_CHANNELS;
