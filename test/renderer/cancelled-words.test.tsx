// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { JobStepResult } from '../../domain/job-steps';
import { cancelledSentence } from '../../renderer/format/cancelled-text';
import { StepOutcome } from '../../renderer/workbench/StepOutcome';
import { jobView } from '../fixtures/job-view';
import { mount, type Mounted } from './dom';

/** Issue 32: a cancelled job reads as one sentence in the screen's words, not the CLI's line with its code. */

const cancelledUpload: JobStepResult = {
  step: 'firmware',
  of: null,
  status: 'cancelled',
  summary: 'firmware update cancelled',
  reason: 'cancelled during uploading at 37%',
  errorCode: 'CANCELLED',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:05.000Z',
  bytes: 37_500,
  retries: 0,
  resumedFrom: null,
};

function cancelled(change: Parameters<typeof jobView>[0] = {}) {
  return jobView({
    phase: 'cancelled',
    bytesDone: 37_500,
    bytesTotal: 100_000,
    finishedAt: '2026-01-01T00:00:05.000Z',
    steps: [cancelledUpload],
    ...change,
  });
}

let view: Mounted | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

describe('a cancelled job in the screen’s words', () => {
  it('says where it stopped and that Retry resumes a firmware upload from there', () => {
    expect(cancelledSentence(cancelled())).toBe('Cancelled at 37%. Retry resumes from there.');
  });

  it('says Retry starts again when nothing is kept to resume', () => {
    expect(cancelledSentence(cancelled({ step: 'configuration', action: 'configuration' }))).toBe(
      'Cancelled. Retry starts it again.',
    );
    expect(cancelledSentence(cancelled({ bytesDone: 100_000 }))).toBe('Cancelled. Retry starts it again.');
    expect(
      cancelledSentence(cancelled({ steps: [{ ...cancelledUpload, reason: 'cancelled before it started' }] })),
    ).toBe('Cancelled before it started. Retry starts it.');
    expect(cancelledSentence(jobView({ phase: 'failed' }))).toBe('');
  });

  it('the Workbench row shows the one sentence, and neither the command-line advice nor the code', async () => {
    view = await mount(<StepOutcome job={cancelled()} label="EPC000101" />);
    const text = view.container.textContent ?? '';
    expect(text).toBe('Cancelled at 37%. Retry resumes from there.');
    expect(text).not.toMatch(/run the same command|CANCELLED/);
  });
});
