import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobTimeline, TIMELINE_JOBS_PER_DEVICE } from '../../../../main/features/workbench/job-timeline';
import { supportReport } from '../../../../main/core/handlers/support';
import { plannedSteps } from '../../../../domain/job-steps';
import { jobView } from '../../../fixtures/job-view';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'job-timeline-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const finished = (jobId: string, serialNumber = 'EPC000101') =>
  jobView({
    jobId,
    serialNumber,
    phase: 'done',
    finishedAt: '2026-01-01T00:00:09.000Z',
    action: 'both',
    steps: plannedSteps('both'),
  });

describe('the job timeline', () => {
  it('keeps each device its last jobs, newest first, across a restart', async () => {
    const path = join(dir, 'provisioning', 'job-timeline.json');
    const first = new JobTimeline(path);
    for (let i = 0; i < TIMELINE_JOBS_PER_DEVICE + 2; i += 1) await first.record(finished(`j${i}`));
    await first.record(finished('other', 'SRCP000101'));

    const again = new JobTimeline(path);
    const jobs = await again.of('EPC000101');
    expect(jobs).toHaveLength(TIMELINE_JOBS_PER_DEVICE);
    expect(jobs[0]!.jobId).toBe(`j${TIMELINE_JOBS_PER_DEVICE + 1}`);
    expect(jobs[0]!.steps.map((s) => s.step)).toEqual([
      'firmware',
      'read-back',
      'confirmation',
      'configuration',
      'read-back',
      'parameter-verification',
      'confirmation',
    ]);
    expect((await again.of('SRCP000101')).map((j) => j.jobId)).toEqual(['other']);
    expect(await again.of('WESP000101')).toEqual([]);
  });

  it('records a job once even when it is reported twice', async () => {
    const timeline = new JobTimeline(join(dir, 't.json'));
    await timeline.record(finished('j1'));
    await timeline.record(finished('j1'));
    expect(await timeline.of('EPC000101')).toHaveLength(1);
  });

  it('starts empty from a damaged file, says so, and writes a good one next', async () => {
    const path = join(dir, 't.json');
    await writeFile(path, '{"format":"provisioner-job');
    const problems: string[] = [];
    const timeline = new JobTimeline(path, { onError: (m) => problems.push(m) });
    expect(await timeline.of('EPC000101')).toEqual([]);
    expect(problems[0]).toContain('could not be read and starts empty');
    await timeline.record(finished('j1'));
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ format: 'provisioner-job-timeline/1' });
  });

  it('is part of the support report', async () => {
    const timeline = new JobTimeline(join(dir, 't.json'));
    await timeline.record(finished('j1'));
    const log = { recent: () => [], redact: (text: string) => text } as never;
    const report = await supportReport({
      appInfo: { appVersion: '1', host: 'test', platform: 'linux', nodeVersion: '24' },
      session: async () => ({ status: 'signedOut' }) as never,
      devices: () => [],
      jobs: () => [],
      outbox: async () => ({}) as never,
      timeline: () => timeline.all(),
      log,
    });
    const content = JSON.parse(report.content) as {
      jobTimeline: Record<string, Array<{ jobId: string; steps: unknown[] }>>;
    };
    expect(content.jobTimeline.EPC000101![0]!.jobId).toBe('j1');
    expect(content.jobTimeline.EPC000101![0]!.steps).toHaveLength(7);
  });
});
