/**
 * Per-step results of a provisioning job: what each step of a job (firmware, configuration,
 * read-back, confirmation, and the function test once it exists) did, on its own. A job of
 * several steps shows each step's outcome (the Workbench row, the Station tile, the CLI's final
 * line), so that a firmware that did install is never called failed because the configuration
 * after it could not be applied. Pure: no I/O, no clocks.
 */
import { englishWords, type Words } from './domain-words';

export const JOB_STEP_KINDS = [
  'firmware',
  'configuration',
  'read-back',
  'parameter-verification',
  'confirmation',
  'function-test',
] as const;
export type JobStepKind = (typeof JOB_STEP_KINDS)[number];

export const STEP_STATUSES = ['not-started', 'running', 'done', 'waiting', 'skipped', 'cancelled', 'failed'] as const;
/**
 * - `done`: the step did its work (or there was nothing to do: the device already had it).
 * - `waiting`: finished here, the rest happens later (a confirmation waiting in the outbox).
 * - `skipped`: not attempted, for the reason given (the device is in no configuration).
 * - `failed`: attempted and did not succeed; `errorCode` and `reason` say why.
 * - `not-started`: never reached (an earlier step failed or the job was cancelled).
 */
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface JobStepResult {
  step: JobStepKind;
  /** For read-back and confirmation: whose read-back or confirmation it is. */
  of: 'firmware' | 'configuration' | null;
  status: StepStatus;
  /** What the step did or was to do, in a technician's words: "firmware 1.1.0 installed", "configuration not applied". */
  summary: string;
  /** Why it was skipped or failed, in full, in a technician's words (the catalogue's text first, docs/errors.md). */
  reason: string | null;
  /** The stable code for support (e.g. DEVICE_NOT_IN_CONFIGURATION, FW_HASH_MISMATCH); null when nothing went wrong. */
  errorCode: string | null;
  /** ISO times; null when the step did not run. */
  startedAt: string | null;
  finishedAt: string | null;
  /** Bytes sent to the device in this step (uploads); null when it sent none. */
  bytes: number | null;
  /** Attempts beyond the first (reconnections after a pulled cable). */
  retries: number;
  /** Offset an interrupted upload resumed from; null for none. */
  resumedFrom: number | null;
}

/** A step that has not run yet: the shape every step starts from. */
export function pendingStep(step: JobStepKind, summary: string, of: JobStepResult['of'] = null): JobStepResult {
  return {
    step,
    of,
    status: 'not-started',
    summary,
    reason: null,
    errorCode: null,
    startedAt: null,
    finishedAt: null,
    bytes: null,
    retries: 0,
    resumedFrom: null,
  };
}

/**
 * The steps a job of this action goes through, none started: firmware (upload and apply), its
 * read-back and confirmation; then the same for the configuration, whose read-back is followed by
 * the verification of the parameters the device runs.
 */
export function plannedSteps(action: 'firmware' | 'configuration' | 'both'): JobStepResult[] {
  const of = (what: 'firmware' | 'configuration'): JobStepResult[] => [
    pendingStep(what, what === 'firmware' ? 'firmware update' : 'configuration apply'),
    pendingStep('read-back', `read back the ${what === 'firmware' ? 'firmware version' : 'configuration'}`, what),
    // A configuration's parameters are read back from the device and compared (issue 26).
    ...(what === 'configuration'
      ? [pendingStep('parameter-verification', 'verify the parameters the device runs', what)]
      : []),
    pendingStep('confirmation', `confirm the ${what} to the service`, what),
  ];
  return action === 'both' ? [...of('firmware'), ...of('configuration')] : of(action);
}

/**
 * A step's name in the reader's language: "Firmware update", "Konfiguration zurücklesen",
 * "功能测试". A read-back or confirmation says whose it is (`of`).
 */
export function stepName(step: Pick<JobStepResult, 'step' | 'of'>, words: Words = englishWords()): string {
  return words.t(`domain:step.${step.step}`, { of: step.of ?? 'none' });
}

/** A step's status as a word beside its mark (never colour alone): "Done", "Fehlgeschlagen", "已跳过". */
export function stepStatusLabel(status: StepStatus, words: Words = englishWords()): string {
  return words.t(`domain:stepStatus.${status}`);
}

/** How a job reads at a glance: its colour follows its worst step. */
export type JobTone = 'running' | 'ok' | 'attention' | 'failed';

const SEVERITY: Record<StepStatus, number> = {
  done: 0,
  waiting: 0,
  running: 0,
  'not-started': 1,
  skipped: 2,
  cancelled: 2,
  failed: 3,
};

/** The worst step's status (`done` for a job with no steps). A `not-started` step counts only beside a worse one or alone. */
export function worstStatus(steps: readonly JobStepResult[]): StepStatus {
  let worst: StepStatus = 'done';
  for (const s of steps) if (SEVERITY[s.status] > SEVERITY[worst]) worst = s.status;
  return worst;
}

/**
 * Running while any step runs; failed when a step failed; attention when a step was skipped,
 * cancelled or never reached; ok otherwise. A step that did its work is shown as done whatever
 * the tone: the tone is the row's, each step keeps its own mark.
 */
export function jobTone(steps: readonly JobStepResult[], finished: boolean): JobTone {
  if (!finished || steps.some((s) => s.status === 'running')) return 'running';
  const worst = worstStatus(steps);
  if (worst === 'failed') return 'failed';
  if (SEVERITY[worst] > 0) return 'attention';
  return 'ok';
}

/** The mark a step carries in a line: ✓ done, ✗ failed, – skipped or not started, … waiting or running. */
export function stepMark(status: StepStatus): string {
  switch (status) {
    case 'done':
      return '✓';
    case 'failed':
      return '✗';
    case 'waiting':
    case 'running':
      return '…';
    case 'skipped':
    case 'cancelled':
    case 'not-started':
      return '–';
  }
}

/** Steps a line names: the work the technician asked for, and any other step that did not go to plan. */
export function headlineSteps(steps: readonly JobStepResult[]): JobStepResult[] {
  return steps.filter(
    (s) =>
      s.step === 'firmware' ||
      s.step === 'configuration' ||
      s.step === 'function-test' ||
      s.status === 'failed' ||
      s.status === 'cancelled',
  );
}

/** One step in a line: "firmware 1.1.0 installed ✓", "configuration not applied: EPC000101 is in no configuration". */
export function stepText(step: JobStepResult, confirmation?: JobStepResult): string {
  // A step's confirmation is said beside it: "failure confirmed" must never be read for a step it is not about.
  const confirmed =
    confirmation &&
    (confirmation.status === 'done' || confirmation.status === 'waiting') &&
    confirmation.summary !== 'nothing new to confirm'
      ? confirmation.summary
      : null;
  if (step.status === 'done' || step.status === 'waiting' || step.status === 'running')
    return `${step.summary}${confirmed ? `, ${confirmed}` : ''} ${stepMark(step.status)}`;
  const text = step.reason ? `${step.summary}: ${step.reason}` : step.summary;
  return confirmed ? `${text} (${confirmed})` : text;
}

/**
 * The job's line, every headline step in order with its confirmation, nothing cut:
 * `firmware 1.1.0 installed, confirmed to the service ✓ · configuration not applied: EPC000101 is in no configuration`.
 */
export function stepsLine(steps: readonly JobStepResult[]): string {
  const headline = headlineSteps(steps);
  const group = (s: JobStepResult) => (s.step === 'firmware' || s.step === 'configuration' ? s.step : s.of);
  return headline
    .map((s, i) => {
      // The confirmation is said once, beside the last step of its group the line names (the one that failed, if one did).
      const last = group(s) !== null && !headline.slice(i + 1).some((later) => group(later) === group(s));
      const confirmation =
        last && s.step !== 'confirmation'
          ? steps.find((c) => c.step === 'confirmation' && c.of === group(s))
          : undefined;
      return stepText(s, confirmation);
    })
    .join(' · ');
}

/** Whether every step the technician asked for did its work (a waiting confirmation counts: the outbox sends it). */
export function allStepsDone(steps: readonly JobStepResult[]): boolean {
  return steps.every((s) => s.status === 'done' || s.status === 'waiting');
}

/**
 * Whether the job put a configuration on the device: its configuration step did its work. A job
 * that installed firmware but skipped the configuration (the device is in no configuration) did
 * not, and must not lead to a function test "now that the configuration is applied".
 */
export function configurationApplied(steps: readonly JobStepResult[]): boolean {
  return steps.some((s) => s.step === 'configuration' && s.status === 'done');
}
