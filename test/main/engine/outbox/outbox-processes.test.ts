import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, type ConfirmationSender, type NewConfirmation } from '../../../../main/engine/outbox/outbox';
import { FakeHttp, ok, type Handler } from '../../cloud/fake-http';
import { FakeTime, deferred } from '../jobs/fake-time';

/** Two real processes on one outbox directory: the sender lock, and taking it over from a killed one. */

const CHILD = fileURLToPath(new URL('./outbox-child.ts', import.meta.url));

let dir: string;
let http: FakeHttp;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'outbox-proc-'));
  http = await new FakeHttp().start();
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await http.stop();
  await rm(dir, { recursive: true, force: true });
});

function confirmation(): NewConfirmation {
  return {
    kind: 'firmware',
    serviceUrl: http.url,
    orgId: 'org-1',
    serialNumber: 'EPC000101',
    payload: {
      firmwareFileSuccessfullyDeployed: true,
      error: null,
      firmwareVersion: '1.1.0',
      applyTimeStamp: '2026-01-01T00:00:00.000Z',
    },
  };
}

function startChild(): { process: ChildProcess; output: Promise<string> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, http.url, 'org-1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const output = new Promise<string>((resolve) => proc.on('exit', () => resolve(out)));
  return { process: proc, output };
}

/** A handler that holds the request until released, and says when it arrived. */
function held(): { handler: Handler; arrived: Promise<void>; release: () => void } {
  const arrived = deferred();
  const gate = deferred();
  return {
    handler: (req, res, body) => {
      arrived.resolve();
      void gate.promise.then(() => ok(true)(req, res, body));
    },
    arrived: arrived.promise,
    release: () => gate.resolve(),
  };
}

describe('outbox shared by two processes', () => {
  const neverSent: ConfirmationSender = {
    send: () => {
      throw new Error('this process must not send while the other holds the lock');
    },
  };

  it('skips a pass while the other process is sending, then finds nothing left', async () => {
    const time = new FakeTime();
    const mine = new Outbox({ dir, sender: neverSent, clock: time.clock, timers: time.timers });
    await mine.enqueue(confirmation());
    const gate = held();
    http.next(gate.handler);
    const other = startChild();
    child = other.process;
    await gate.arrived;
    expect((await mine.syncNow({ force: true })).skippedLocked).toBe(true);
    gate.release();
    expect(await other.output).toMatch(/^done .*"delivered":\["/m);
    expect(await mine.list()).toEqual([]);
    expect(http.requests).toHaveLength(1);
  });

  it('takes over the lock of a process killed while sending, and sends the same entry', async () => {
    const time = new FakeTime();
    const sent: string[] = [];
    const mine = new Outbox({
      dir,
      sender: { send: async (entry) => (sent.push(entry.id), true) },
      clock: time.clock,
      timers: time.timers,
    });
    const entry = await mine.enqueue(confirmation());
    const gate = held();
    http.next(gate.handler);
    const other = startChild();
    child = other.process;
    await gate.arrived;
    other.process.kill('SIGKILL');
    await other.output;
    const report = await mine.syncNow({ force: true });
    expect(report.skippedLocked).toBe(false);
    expect(report.delivered).toEqual([entry.id]);
    expect(sent).toEqual([entry.id]);
  });
});
