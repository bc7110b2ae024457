import { describe, expect, it } from 'vitest';
import { configurationApplied, jobTone, plannedSteps, stepsLine, type JobStepResult } from '../../domain/job-steps';
import { stepsOnProgress, stepsOnResult } from '../../main/engine/jobs/step-record';
import type { StepResult } from '../../main/engine/jobs';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const applied = (change: Partial<StepResult> = {}): StepResult => ({
  outcome: 'applied',
  phase: 'done',
  resultMessage: 'firmware 1.1.0 installed',
  errorCode: null,
  resumable: false,
  confirmation: 'sent',
  ...change,
});

function run(
  steps: JobStepResult[],
  step: 'firmware' | 'configuration',
  phases: Array<[string, number]>,
): JobStepResult[] {
  let current = steps;
  for (const [phase, second] of phases) {
    current = stepsOnProgress(
      current,
      {
        step,
        phase: phase as never,
        bytesDone: phase === 'uploading' ? 4096 : 0,
        resumedFrom: phase === 'uploading' ? 1024 : null,
        attempts: phase === 'uploading' ? 2 : 1,
      },
      at(second),
    );
  }
  return current;
}

describe('per-step results of a job', () => {
  it('records start, bytes, retries and resume offset of the step that runs, and ends it when the next begins', () => {
    const steps = run(plannedSteps('firmware'), 'firmware', [
      ['resolving', 0],
      ['uploading', 2],
      ['checking', 9],
    ]);
    expect(steps[0]).toMatchObject({
      step: 'firmware',
      status: 'done',
      startedAt: at(0),
      finishedAt: at(9),
      bytes: 4096,
      resumedFrom: 1024,
      retries: 1,
    });
    expect(steps[1]).toMatchObject({ step: 'read-back', of: 'firmware', status: 'running', startedAt: at(9) });
    expect(jobTone(steps, false)).toBe('running');
  });

  it('a failure during the read-back fails that step, never the upload before it', () => {
    const running = run(plannedSteps('firmware'), 'firmware', [
      ['uploading', 1],
      ['applying', 5],
      ['checking', 8],
    ]);
    const steps = stepsOnResult(
      running,
      'firmware',
      applied({
        outcome: 'failed',
        phase: 'failed',
        resultMessage: 'restarted running 1.0.0',
        errorCode: 'FW_NOT_RUNNING',
        confirmation: 'queued',
      }),
      'EPC000101',
      at(9),
    );
    expect(steps.map((s) => s.status)).toEqual(['done', 'failed', 'waiting']);
    expect(steps[1]).toMatchObject({ errorCode: 'FW_NOT_RUNNING', reason: 'restarted running 1.0.0' });
    expect(jobTone(steps, true)).toBe('failed');
    expect(stepsLine(steps)).toBe(
      'firmware uploaded and applied ✓ · reading back the firmware version failed: restarted running 1.0.0 (failure report waiting in the outbox)',
    );
  });

  it('the tone follows the worst step: installed firmware and a skipped configuration read as attention, not failure', () => {
    let steps = stepsOnResult(plannedSteps('both'), 'firmware', applied(), 'EPC000101', at(1));
    steps = stepsOnResult(
      steps,
      'configuration',
      applied({ outcome: 'failed', phase: 'failed', errorCode: 'DEVICE_NOT_IN_CONFIGURATION', confirmation: 'none' }),
      'EPC000101',
      at(2),
    );
    expect(steps[0]!.status).toBe('done');
    expect(steps[3]).toMatchObject({
      status: 'skipped',
      reason: 'EPC000101 is in no configuration: add it in Configurations',
    });
    expect(jobTone(steps, true)).toBe('attention');
    expect(stepsLine(steps)).toBe(
      'firmware 1.1.0 installed, confirmed to the service ✓ · configuration not applied: EPC000101 is in no configuration: add it in Configurations',
    );
  });

  it('every step done reads ok', () => {
    let steps = stepsOnResult(plannedSteps('both'), 'firmware', applied(), 'EPC000101', at(1));
    steps = stepsOnResult(
      steps,
      'configuration',
      applied({ resultMessage: 'configuration ab12 applied', confirmation: 'queued' }),
      'EPC000101',
      at(2),
    );
    expect(jobTone(steps, true)).toBe('ok');
  });
});

describe('whether a job applied a configuration', () => {
  it('only when its configuration step did its work: not a both job that skipped it, not a firmware job', () => {
    const both = plannedSteps('both');
    const withStatus = (status: JobStepResult['status']) =>
      both.map((s) => (s.step === 'configuration' ? { ...s, status } : { ...s, status: 'done' as const }));
    expect(configurationApplied(withStatus('done'))).toBe(true);
    expect(configurationApplied(withStatus('skipped'))).toBe(false);
    expect(configurationApplied(withStatus('failed'))).toBe(false);
    expect(configurationApplied(plannedSteps('firmware').map((s) => ({ ...s, status: 'done' as const })))).toBe(false);
  });
});
