import type { JobSnapshot, JobView } from '../domain/jobs';
import type { FunctionTestReadyView } from './accountability';
import type { LedgerVerifyProgress } from './ledger';
import type { OutboxView } from './outbox';
import type { SessionView } from './session';
import type { StationEvent } from './station';
import type { LogLine } from './support';
import type { AttachedDeviceView } from './workbench';

/** What the core pushes to the renderer, by stream name. */
export interface EventStreams {
  /** The session changed (sign-in, sign-out, key rejected). */
  'session.changed': SessionView;
  /** The whole list of attached devices, whenever one appears, disappears or is identified. */
  'workbench.devicesChanged': AttachedDeviceView[];
  /** Jobs whose state changed, throttled: a batch at most every ~100 ms per job. */
  'jobs.progress': JobView[];
  /**
   * The same changes as whole job records, for a host that prints them (the CLI, through the
   * `jobs.*` channels). Not forwarded to a renderer (EVENT_STREAMS), which has jobs.progress.
   */
  'jobs.changed': JobSnapshot[];
  /** Once per job, with its final record (for the same hosts). */
  'jobs.finished': JobSnapshot;
  /** A function test's devices are watched: the technician may press the E-stop (for a host that says so; not forwarded). */
  'functionTest.ready': FunctionTestReadyView;
  /**
   * Each event of the station's shift, as `provisioner station` prints it (--json: one a line).
   * Not forwarded to a renderer (EVENT_STREAMS): the Station screen reads station.view.
   */
  'station.event': StationEvent;
  /**
   * How far a check of the ledger (`ledger.verify`) is, for the host that asked it to draw (the
   * CLI's `ledger verify` progress line). Not forwarded to a renderer (EVENT_STREAMS): no screen
   * checks the ledger, and the core says one per line checked (the host picks how often it draws).
   */
  'ledger.verifyProgress': LedgerVerifyProgress;
  'outbox.changed': OutboxView;
  'logs.line': LogLine;
}
export type EventStream = keyof EventStreams;
/** The streams the Electron and web bridges forward to a renderer. */
export const EVENT_STREAMS: readonly EventStream[] = [
  'session.changed',
  'workbench.devicesChanged',
  'jobs.progress',
  'outbox.changed',
  'logs.line',
];

export function isEventStream(name: unknown): name is EventStream {
  return typeof name === 'string' && (EVENT_STREAMS as readonly string[]).includes(name);
}
