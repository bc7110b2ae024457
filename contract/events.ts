import type { JobView } from '../domain/jobs';
import type { OutboxView } from './outbox';
import type { SessionView } from './session';
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
  'outbox.changed': OutboxView;
  'logs.line': LogLine;
}
export type EventStream = keyof EventStreams;
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
