import { describe, expect, it } from 'vitest';
import {
  JobQueue,
  jobText,
  type JobControl,
  type JobEnvironment,
  type JobSnapshot,
} from '../../../../main/engine/jobs';
import { toJobView } from '../../../../main/features/workbench/workbench-jobs';
import { progressStatus } from '../../../../renderer/format/progress-status';

/**
 * The queue's silence watch (issue 32), with a step runner standing in for a device whose
 * acknowledgements stop: the job's snapshot, the CLI's line and the Workbench row's status all say
 * so, and say nothing once bytes move again.
 */

const env = {} as JobEnvironment;

describe('a transfer whose acknowledgements stop', () => {
  it(
    'is said silent in the CLI line and the Workbench row, without a rate or time left, until bytes move again',
    { timeout: 60_000 },
    async () => {
      let control!: JobControl;
      let resume!: () => void;
      const queue = new JobQueue({
        environment: () => env,
        // Short, so that the test does not wait the default 5 s; the watch looks once a second.
        stallNoticeMs: 1000,
        progressIntervalMs: 10,
        runners: {
          firmware: async (_env, _request, c) => {
            control = c;
            c.update({ phase: 'uploading', bytesTotal: 100_000, bytesDone: 0 });
            for (let done = 1000; done <= 30_000; done += 1000) {
              await new Promise((r) => setTimeout(r, 20));
              c.update({ bytesDone: done });
            }
            // The cable is cut: nothing moves until the test says so.
            await new Promise<void>((r) => (resume = r));
            c.update({ bytesDone: 31_000 });
            return {
              phase: 'done',
              outcome: 'applied',
              resultMessage: 'installed',
              errorCode: null,
              resumable: false,
              confirmation: 'none',
            };
          },
        },
      });
      const seen: JobSnapshot[] = [];
      let onSilent: ((job: JobSnapshot) => void) | undefined;
      queue.subscribe((batch) => {
        for (const job of batch) {
          seen.push(job);
          if (typeof job.silentSeconds === 'number') onSilent?.(job);
        }
      });
      const job = queue.submit({ action: 'firmware', target: { kind: 'link', spec: 'udp:silent' } });
      const silent = await new Promise<JobSnapshot>((resolve) => (onSilent = resolve));
      expect(control).toBeDefined();
      expect(silent.bytesDone).toBe(30_000);
      expect(silent.rateBytesPerSecond).toBeNull();
      // Before the silence, the line had a rate and a time left: the notice replaced them.
      expect(seen.some((s) => s.rateBytesPerSecond !== null && typeof s.silentSeconds !== 'number')).toBe(true);
      expect(jobText(silent)).toBe(
        `Uploading firmware — 30% — No answer from the device for ${silent.silentSeconds} s: check the cable`,
      );
      expect(progressStatus(toJobView(silent))).toMatchObject({
        label: `No answer from the device for ${silent.silentSeconds} s: check the cable`,
        rateText: '',
        timeLeftText: '',
      });

      onSilent = undefined;
      resume();
      const final = await queue.wait(job.jobId);
      expect(final.phase).toBe('done');
      const after = seen.filter((s) => s.bytesDone === 31_000);
      expect(after.length).toBeGreaterThan(0);
      expect(after.every((s) => s.silentSeconds === null)).toBe(true);
    },
  );
});
