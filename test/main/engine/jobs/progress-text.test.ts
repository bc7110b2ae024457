import { describe, expect, it } from 'vitest';
import { initialSnapshot, type JobSnapshot } from '../../../../main/engine/jobs/job-state';
import { runningText } from '../../../../main/engine/jobs/progress-text';

const uploading = (change: Partial<JobSnapshot>): JobSnapshot => ({
  ...initialSnapshot({
    jobId: 'j1',
    linkId: 'serial:/dev/a',
    action: 'firmware',
    serialNumber: 'EPC000101',
    now: new Date(0),
  }),
  phase: 'uploading',
  bytesDone: 14_000,
  bytesTotal: 44_912,
  rateBytesPerSecond: 17_000,
  ...change,
});

describe('the CLI line of a running upload', () => {
  it('shows the effective rate and the coding of a compressed upload', () => {
    const line = runningText(uploading({ transferCoding: 'compressed, 1.6× faster' }));
    expect(line).toMatch(/31%/);
    expect(line).toMatch(/17(\.0)? kB\/s/);
    expect(line).toMatch(/compressed, 1\.6× faster/);
  });

  it('says nothing of a coding when the image goes as it is', () => {
    expect(runningText(uploading({ transferCoding: null }))).not.toMatch(/wire/);
  });
});
