import { describe, expect, it } from 'vitest';
import { abortReason } from '../../../../main/devices/errors';
import {
  JobQueue,
  ProgressBatcher,
  RateMeter,
  durationText,
  initialSnapshot,
  jobText,
  rateText,
  type JobEnvironment,
  type JobSnapshot,
  type StepResult,
} from '../../../../main/engine/jobs';
import type { ProgressTimers } from '../../../../main/engine/jobs/progress';

/** Unit tests of the queue and the progress events, with step runners standing in for devices. */

function manualTimers(): ProgressTimers & { advance(ms: number): void } {
  let now = 0;
  const pending: Array<{ at: number; callback: () => void; id: number }> = [];
  let nextId = 1;
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++;
      pending.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimeout(handle) {
      const index = pending.findIndex((p) => p.id === handle);
      if (index >= 0) pending.splice(index, 1);
    },
    advance(ms) {
      now += ms;
      for (;;) {
        pending.sort((a, b) => a.at - b.at);
        const first = pending[0];
        if (!first || first.at > now) break;
        pending.shift();
        first.callback();
      }
    },
  };
}

function snapshot(jobId: string, change: Partial<JobSnapshot> = {}): JobSnapshot {
  return { ...initialSnapshot({ jobId, linkId: 'serial:/dev/x', action: 'firmware', now: new Date(0) }), ...change };
}

describe('progress batching', () => {
  it('delivers at most one batch per interval with the newest snapshot of each job, and a finished job at once', () => {
    const timers = manualTimers();
    const batcher = new ProgressBatcher(100, timers);
    const batches: JobSnapshot[][] = [];
    batcher.subscribe((batch) => batches.push(batch));
    // 16 jobs, 1000 updates each within one second.
    for (let ms = 0; ms < 1000; ms += 1) {
      for (let job = 0; job < 16; job += 1)
        batcher.update(snapshot(`job${job}`, { phase: 'uploading', bytesDone: ms }));
      timers.advance(1);
    }
    expect(batches.length).toBeLessThanOrEqual(11);
    expect(batches.at(-1)).toHaveLength(16);
    expect(batches.at(-1)![0]!.bytesDone).toBeGreaterThan(890);
    const before = batches.length;
    batcher.update(snapshot('job3', { phase: 'done' }));
    expect(batches.length).toBe(before + 1);
    expect(batches.at(-1)!.find((s) => s.jobId === 'job3')!.phase).toBe('done');
  });

  it('measures the rate over a sliding window and starts afresh when the transfer restarts', () => {
    const meter = new RateMeter(3000, 400);
    expect(meter.sample(0, 0)).toBeNull();
    expect(meter.sample(5000, 500)).toBe(10_000);
    expect(meter.sample(10_000, 1000)).toBe(10_000);
    expect(meter.sample(2000, 1100)).toBeNull(); // went backwards: a new transfer
  });
});

describe('progress text', () => {
  it('reads like a sentence', () => {
    const job = snapshot('a', {
      phase: 'uploading',
      firmwareVersion: '2.4.1',
      bytesDone: 43_000,
      bytesTotal: 100_000,
      rateBytesPerSecond: 10_900,
    });
    expect(jobText(job)).toBe('Uploading firmware 2.4.1 — 43% — 10.9 kB/s — 5 s left');
    expect(durationText(72)).toBe('1 min 12 s');
    expect(durationText(7500)).toBe('2 h 5 min');
    expect(rateText(11_520)).toBe('11.5 kB/s');
    expect(
      jobText(
        snapshot('b', { phase: 'done', resultMessage: 'firmware 1.1.0 installed (was 1.0.0)', confirmation: 'queued' }),
      ),
    ).toBe('firmware 1.1.0 installed (was 1.0.0); confirmation waiting in the outbox');
  });
});

function result(change: Partial<StepResult> = {}): StepResult {
  return {
    phase: 'done',
    outcome: 'applied',
    resultMessage: 'ok',
    errorCode: null,
    resumable: false,
    confirmation: 'sent',
    ...change,
  };
}

describe('job queue', () => {
  const env = {} as JobEnvironment;

  it('runs at most `concurrency` jobs at once, one per device, and isolates failures', async () => {
    let running = 0;
    let most = 0;
    const queue = new JobQueue({
      concurrency: 3,
      environment: () => env,
      runners: {
        firmware: async (_env, request) => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 5));
          running -= 1;
          if (request.target.kind === 'link' && request.target.spec === 'udp:bad') throw new Error('boom');
          return result();
        },
      },
    });
    const jobs = ['a', 'b', 'bad', 'c', 'd', 'e', 'a'].map((spec) =>
      queue.submit({ action: 'firmware', target: { kind: 'link', spec: `udp:${spec}` } }),
    );
    const finals = await queue.idle();
    expect(most).toBeLessThanOrEqual(3);
    expect(finals.filter((f) => f.phase === 'done')).toHaveLength(6);
    const bad = finals.find((f) => f.jobId === jobs[2]!.jobId)!;
    expect(bad.phase).toBe('failed');
    expect(bad.resultMessage).toContain('boom');
  });

  it('cancels one job through its signal and leaves the others running', async () => {
    const queue = new JobQueue({
      concurrency: 2,
      environment: () => env,
      runners: {
        firmware: (_env, _request, control) =>
          new Promise<StepResult>((resolve) => {
            const timer = setTimeout(() => resolve(result()), 30);
            control.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              void abortReason(control.signal);
              resolve(
                result({
                  phase: 'cancelled',
                  outcome: 'cancelled',
                  resultMessage: 'cancelled during uploading',
                  errorCode: 'CANCELLED',
                }),
              );
            });
          }),
      },
    });
    const a = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'udp:a' } });
    const b = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'udp:b' } });
    const c = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'udp:c' } });
    expect(queue.cancel(a.jobId)).toBe(true);
    expect(queue.cancel(c.jobId)).toBe(true); // still waiting: cancelled at once
    expect((await queue.wait(a.jobId)).phase).toBe('cancelled');
    expect((await queue.wait(b.jobId)).phase).toBe('done');
    expect((await queue.wait(c.jobId)).resultMessage).toBe('cancelled before it started');
  });

  it('runs a failed, resumable job again when its device is plugged in again', async () => {
    let calls = 0;
    const queue = new JobQueue({
      environment: () => env,
      runners: {
        firmware: async (_env, _request, control) => {
          calls += 1;
          control.update({ serialNumber: 'EPC000101' });
          return calls === 1
            ? result({ phase: 'failed', outcome: 'failed', resumable: true, errorCode: 'DEVICE_DISCONNECTED' })
            : result();
        },
      },
    });
    const first = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'serial:/dev/a' } });
    await queue.wait(first.jobId);
    const [again] = queue.deviceAttached('EPC000101', { kind: 'link', spec: 'serial:/dev/b' });
    expect(again).toBeDefined();
    const final = await queue.wait(again!.jobId);
    expect(final.phase).toBe('done');
    expect(final.linkId).toBe('serial:/dev/b');
  });
});

describe('firmware then configuration as one job', () => {
  const env = {} as JobEnvironment;

  /** One "both" job on EPC000101 whose steps end as the runners say; resolves with the job as it finished. */
  async function bothJob(runners: { firmware: () => Promise<StepResult>; configuration: () => Promise<StepResult> }) {
    const queue = new JobQueue({ concurrency: 1, environment: () => env, runners });
    queue.submit({ action: 'both', target: { kind: 'serialNumber', serialNumber: 'EPC000101' } });
    const [final] = await queue.idle();
    if (!final) throw new Error('The queue finished no job.');
    return final;
  }

  it('says the firmware was installed and confirmed, and the configuration skipped and why, when the device is in no configuration', async () => {
    const final = await bothJob({
      firmware: async () =>
        result({
          resultMessage: 'firmware 1.1.0 installed (was 1.0.0)',
          confirmation: 'sent',
          firmwareVersion: '1.1.0',
        }),
      configuration: async () =>
        result({
          phase: 'failed',
          outcome: 'failed',
          resultMessage: 'getting the configuration file failed: device is in no configuration',
          errorCode: 'DEVICE_NOT_IN_CONFIGURATION',
          confirmation: 'none',
        }),
    });
    // Not a failure: the firmware stays installed; the configuration was never attempted.
    expect(final.phase).toBe('done');
    expect(final.outcome).toBe('partial');
    expect(final.confirmation).toBe('sent');
    expect(final.steps.map((s) => [s.step, s.of, s.status])).toEqual([
      ['firmware', null, 'done'],
      ['read-back', 'firmware', 'done'],
      ['confirmation', 'firmware', 'done'],
      ['configuration', null, 'skipped'],
      ['read-back', 'configuration', 'not-started'],
      ['parameter-verification', 'configuration', 'not-started'],
      ['confirmation', 'configuration', 'not-started'],
    ]);
    expect(final.steps[3]!.errorCode).toBe('DEVICE_NOT_IN_CONFIGURATION');
    expect(jobText(final)).toBe(
      'firmware 1.1.0 installed (was 1.0.0), confirmed to the service ✓ · configuration not applied: EPC000101 is in no configuration: add it in Configurations',
    );
  });

  it('reports a configuration failure that was itself confirmed as such', async () => {
    const final = await bothJob({
      firmware: async () => result({ resultMessage: 'firmware 1.1.0 installed (was 1.0.0)', confirmation: 'sent' }),
      configuration: async () =>
        result({
          phase: 'failed',
          outcome: 'failed',
          resultMessage: 'the device refused the file',
          errorCode: 'CONFIG_BAD_SIGNATURE',
          confirmation: 'queued',
        }),
    });
    expect(final.phase).toBe('failed');
    expect(jobText(final)).toBe(
      'firmware 1.1.0 installed (was 1.0.0), confirmed to the service ✓ · configuration not applied: the device refused the file (failure report waiting in the outbox)',
    );
  });

  it('merges the confirmations of two successful steps', async () => {
    const final = await bothJob({
      firmware: async () => result({ resultMessage: 'firmware 1.1.0 installed', confirmation: 'sent' }),
      configuration: async () => result({ resultMessage: 'configuration applied', confirmation: 'queued' }),
    });
    expect(final.confirmation).toBe('queued');
    expect(jobText(final)).toBe(
      'firmware 1.1.0 installed, confirmed to the service ✓ · configuration applied, confirmation waiting in the outbox ✓',
    );
  });
});
