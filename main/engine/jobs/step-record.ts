import type { JobStepKind, JobStepResult } from '../../../domain/job-steps';
import type { JobPhase, JobStep } from './job-state';
import type { StepResult } from './context';
import { shortChecksum } from '../../../domain/running-parameters';

/**
 * Keeps a job's per-step results (domain/job-steps.ts) as it runs: the phase a job step reports
 * says which step is active (firmware or configuration while resolving … applying; its read-back
 * while checking; its confirmation while confirming), and a step's result says how each ended.
 * Pure: the queue passes the time in.
 */

/** Service answers that mean the configuration step cannot be attempted at all: nothing was sent to the device. */
const NOT_APPLICABLE_CODES = new Set([
  'DEVICE_NOT_IN_CONFIGURATION',
  'CONFIGURATION_INCOMPLETE',
  'DEVICE_NOT_REGISTERED',
]);

/** Why a configuration step is skipped, in the words the Workbench and the CLI use before a job starts too. */
export function notApplicableReason(code: string, serialNumber: string): string | null {
  switch (code) {
    case 'DEVICE_NOT_IN_CONFIGURATION':
      return `${serialNumber} is in no configuration: add it in Configurations`;
    case 'CONFIGURATION_INCOMPLETE':
      return `the configuration of ${serialNumber} is not complete: fix it in Configurations`;
    case 'DEVICE_NOT_REGISTERED':
      return `${serialNumber} is not registered: register it in Devices, then add it in Configurations`;
    default:
      return null;
  }
}

export function isNotApplicable(result: Pick<StepResult, 'outcome' | 'errorCode'>): boolean {
  return result.outcome === 'failed' && result.errorCode !== null && NOT_APPLICABLE_CODES.has(result.errorCode);
}

/** Which step a phase of a job step belongs to. */
export function activeStepOf(step: JobStep, phase: JobPhase): { kind: JobStepKind; of: JobStepResult['of'] } | null {
  switch (phase) {
    case 'queued':
    case 'done':
    case 'failed':
    case 'cancelled':
      return null;
    case 'checking':
      return { kind: 'read-back', of: step };
    case 'verifying-parameters':
      return { kind: 'parameter-verification', of: step };
    case 'confirming':
      return { kind: 'confirmation', of: step };
    default:
      return { kind: step, of: null };
  }
}

function matches(s: JobStepResult, kind: JobStepKind, of: JobStepResult['of']): boolean {
  return s.step === kind && (kind === 'firmware' || kind === 'configuration' ? true : s.of === of);
}

/** What a running job reported (phase, bytes, resume offset, attempts), folded into its steps. */
export function stepsOnProgress(
  steps: readonly JobStepResult[],
  current: { step: JobStep; phase: JobPhase; bytesDone: number; resumedFrom: number | null; attempts: number },
  at: string,
): JobStepResult[] {
  const active = activeStepOf(current.step, current.phase);
  if (!active) return [...steps];
  return steps.map((s) => {
    if (matches(s, active.kind, active.of)) {
      const running: JobStepResult = { ...s, status: 'running', startedAt: s.startedAt ?? at };
      if (active.kind === current.step && current.phase === 'uploading') {
        running.bytes = current.bytesDone;
        running.resumedFrom = current.resumedFrom && current.resumedFrom > 0 ? current.resumedFrom : s.resumedFrom;
        running.retries = Math.max(s.retries, current.attempts - 1);
      }
      return running;
    }
    // The job moved on from a step that was running: it did its work.
    return s.status === 'running' ? { ...s, status: 'done', finishedAt: at } : s;
  });
}

/**
 * A job step (firmware or configuration) ended with `result`: its step, read-back and
 * confirmation get their final status. `serialNumber` names the device in a skip reason.
 */
export function stepsOnResult(
  steps: readonly JobStepResult[],
  step: JobStep,
  result: StepResult,
  serialNumber: string | null,
  at: string,
): JobStepResult[] {
  const mine = (s: JobStepResult) => s.step === step || s.of === step;
  const confirmationOf = (s: JobStepResult): JobStepResult => {
    const failure = result.outcome === 'failed' || result.outcome === 'cancelled';
    if (result.confirmation === 'sent')
      return {
        ...s,
        status: 'done',
        summary: failure ? 'failure reported to the service' : 'confirmed to the service',
        startedAt: s.startedAt ?? at,
        finishedAt: at,
      };
    if (result.confirmation === 'queued') {
      return {
        ...s,
        status: 'waiting',
        summary: failure ? 'failure report waiting in the outbox' : 'confirmation waiting in the outbox',
        startedAt: s.startedAt ?? at,
        finishedAt: at,
      };
    }
    return s;
  };
  if (result.outcome === 'applied' || result.outcome === 'up-to-date') {
    return steps.map((s) => {
      if (!mine(s)) return s;
      const finished = { ...s, startedAt: s.startedAt ?? at, finishedAt: s.status === 'done' ? s.finishedAt : at };
      if (s.step === step) return { ...finished, status: 'done', summary: result.resultMessage ?? s.summary };
      if (s.step === 'read-back') return { ...finished, status: 'done', summary: readBackSummary(step, result) };
      if (s.step === 'parameter-verification')
        return { ...finished, status: 'done', summary: parameterSummary(result) };
      const confirmed = confirmationOf(s);
      return confirmed === s ? { ...finished, status: 'done', summary: 'nothing new to confirm' } : confirmed;
    });
  }
  if (isNotApplicable(result)) {
    const reason = notApplicableReason(result.errorCode!, serialNumber ?? 'the device') ?? result.resultMessage;
    return steps.map((s) =>
      s.step === step
        ? {
            ...s,
            status: 'skipped',
            summary: `${step} not applied`,
            reason,
            errorCode: result.errorCode,
            startedAt: s.startedAt ?? at,
            finishedAt: at,
          }
        : mine(s)
          ? { ...s, status: 'not-started' }
          : s,
    );
  }
  // Failed or cancelled: the step running when it happened is the one that failed.
  const cancelled = result.outcome === 'cancelled';
  const runningIndex = steps.findIndex((s) => mine(s) && s.status === 'running');
  const index = runningIndex >= 0 ? runningIndex : steps.findIndex((s) => s.step === step);
  return steps.map((s, i) => {
    if (i === index) {
      return {
        ...s,
        status: cancelled ? 'cancelled' : 'failed',
        summary: failedSummary(s, result),
        reason: result.resultMessage,
        errorCode: result.errorCode,
        startedAt: s.startedAt ?? at,
        finishedAt: at,
      };
    }
    if (mine(s) && s.step === 'confirmation') return confirmationOf(s);
    // The upload and apply went through before the read-back or confirmation failed.
    if (s.step === step && s.status === 'done')
      return {
        ...s,
        summary:
          step === 'firmware'
            ? `firmware${result.firmwareVersion ? ` ${result.firmwareVersion}` : ''} uploaded and applied`
            : 'configuration uploaded',
      };
    return s;
  });
}

/** Steps of the job that never ran stay `not-started`; a cancelled job's are so too. */
export function stepsOnCancelledBeforeStart(steps: readonly JobStepResult[], at: string): JobStepResult[] {
  return steps.map((s, i) =>
    i === 0
      ? {
          ...s,
          status: 'cancelled',
          summary: `${s.summary} cancelled`,
          reason: 'cancelled before it started',
          errorCode: 'CANCELLED',
          finishedAt: at,
        }
      : s,
  );
}

function readBackSummary(step: JobStep, result: StepResult): string {
  if (step === 'firmware')
    return result.firmwareVersion
      ? `the device reports firmware ${result.firmwareVersion}`
      : 'firmware version read back';
  return result.syncId ? `the device reports configuration ${result.syncId}` : 'configuration read back';
}

function failedSummary(s: JobStepResult, result: StepResult): string {
  const cancelled = result.outcome === 'cancelled';
  switch (s.step) {
    case 'firmware':
      return cancelled ? 'firmware update cancelled' : 'firmware not installed';
    case 'configuration':
      return cancelled ? 'configuration apply cancelled' : 'configuration not applied';
    case 'read-back':
      return cancelled
        ? 'read-back cancelled'
        : `reading back the ${s.of === 'firmware' ? 'firmware version' : 'configuration'} failed`;
    case 'confirmation':
      return cancelled ? 'confirmation cancelled' : `confirming the ${s.of ?? 'result'} failed`;
    case 'parameter-verification':
      return cancelled
        ? 'parameter verification cancelled'
        : 'the device does not run the parameters of the configuration';
    case 'function-test':
      return cancelled ? 'function test cancelled' : 'function test failed';
  }
}

function parameterSummary(result: StepResult): string {
  const comparison = result.parameters;
  if (!comparison) return 'parameters not read back';
  return `parameters match the configuration, checksum ${shortChecksum(comparison.runningChecksum)}: a person confirms them`;
}
