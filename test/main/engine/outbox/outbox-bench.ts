import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import {
  Outbox,
  type ConfirmationSender,
  type NewConfirmation,
  type OutboxEvent,
} from '../../../../main/engine/outbox/outbox';
import { FakeTime } from '../jobs/fake-time';

/** A firmware confirmation of a successful apply, as a job hands it to the outbox. */
export function firmware(serialNumber = 'SN1', version = '2.1.0'): NewConfirmation {
  return {
    kind: 'firmware',
    serviceUrl: 'http://service.test',
    orgId: 'org-1',
    serialNumber,
    payload: {
      firmwareFileSuccessfullyDeployed: true,
      error: null,
      firmwareVersion: version,
      applyTimeStamp: '2026-01-01T00:00:00.000Z',
    },
  };
}

type OutboxOptions = ConstructorParameters<typeof Outbox>[0];

export interface OutboxBench {
  /** The outbox directory of the running test. */
  dir: string;
  time: FakeTime;
  /** What the outboxes of the running test reported, in order. */
  events: OutboxEvent[];
  /** An outbox on the test's directory and fake time, with no jitter in its backoff. */
  outbox(sender: ConfirmationSender, extra?: Partial<OutboxOptions>): Outbox;
}

/** A fresh directory, fake time and event record for each test of the file; the directory is removed after it. */
export function useOutboxBench(prefix: string): OutboxBench {
  const bench: OutboxBench = {
    dir: '',
    time: new FakeTime(),
    events: [],
    outbox: (sender, extra = {}) =>
      new Outbox({
        dir: bench.dir,
        sender,
        clock: bench.time.clock,
        timers: bench.time.timers,
        random: () => 0.5,
        onEvent: (e) => bench.events.push(e),
        ...extra,
      }),
  };
  beforeEach(async () => {
    bench.dir = await mkdtemp(join(tmpdir(), prefix));
    bench.time = new FakeTime();
    bench.events = [];
  });
  afterEach(async () => {
    await rm(bench.dir, { recursive: true, force: true });
  });
  return bench;
}
