import type { LedgerEntry } from './ledger';

/**
 * Whether a device is commissioned, by its ledger: after its last successful configuration apply,
 * its parameters must have been verified and confirmed by a person (issue 26: the last parameter
 * verification matched and names who confirmed it) and its last function test must have passed.
 * A failed test leaves it not commissioned until a test passes; an apply since needs both again
 * (the safety function may have changed).
 */
export type CommissioningState = 'commissioned' | 'not-commissioned' | 'parameters-differ' | 'untested' | 'unverified';

/** A step a device still needs before it counts as commissioned, in the order they are done. */
export type CommissioningStep = 'configuration apply' | 'parameter verification' | 'function test';

export interface Commissioning {
  state: CommissioningState;
  /** The apply the state is about. */
  apply: LedgerEntry | undefined;
  /** The test that decided it. */
  test: LedgerEntry | undefined;
  /** The last parameter verification after the apply (confirmed or not). */
  parameters: LedgerEntry | undefined;
  /** Which steps are missing, in the order they are done. */
  missing: CommissioningStep[];
}

/** A verification that matched and that a person confirmed. */
export function parametersConfirmed(entry: LedgerEntry | undefined): boolean {
  return (
    entry !== undefined &&
    entry.outcome === 'success' &&
    typeof entry.facts['confirmedBy'] === 'string' &&
    entry.facts['confirmedBy'] !== ''
  );
}

export function commissioningOf(entries: readonly LedgerEntry[], serialNumber: string): Commissioning {
  const mine = entries.filter((entry) => entry.serialNumber === serialNumber);
  const applyIndex = mine.findLastIndex(
    (entry) => entry.action === 'configuration-apply' && entry.outcome === 'success',
  );
  const apply = applyIndex >= 0 ? mine[applyIndex] : undefined;
  const since = mine.slice(applyIndex + 1);
  const test = since.findLast((entry) => entry.action === 'function-test');
  // The last confirmed verification counts; a later unconfirmed look at the same device does not undo it, a failed one does.
  const verifications = since.filter((entry) => entry.action === 'parameter-verification');
  const lastFailed = verifications.findLastIndex((entry) => entry.outcome === 'failure');
  const lastConfirmed = verifications.findLastIndex(parametersConfirmed);
  const parameters = lastConfirmed > lastFailed ? verifications[lastConfirmed] : verifications.at(-1);
  const verified = lastConfirmed >= 0 && lastConfirmed > lastFailed;
  const missing: CommissioningStep[] = [];
  if (!apply) missing.push('configuration apply');
  if (!verified) missing.push('parameter verification');
  if (test?.outcome !== 'success') missing.push('function test');
  const state: CommissioningState =
    test?.outcome === 'failure'
      ? 'not-commissioned'
      : lastFailed >= 0 && !verified
        ? 'parameters-differ'
        : !verified
          ? 'unverified'
          : !test
            ? 'untested'
            : 'commissioned';
  return { state, apply, test, parameters, missing };
}

export const COMMISSIONING_WORDS: Record<CommissioningState, string> = {
  commissioned: 'commissioned (parameters verified, function test passed)',
  'not-commissioned': 'NOT commissioned: the function test failed',
  'parameters-differ': 'NOT commissioned: the parameters running on the device differ from its configuration',
  untested: 'not commissioned: no function test since the configuration was applied',
  unverified: 'not commissioned: its parameters are not verified and confirmed since the configuration was applied',
};

/** "not commissioned: missing parameter verification, function test" — which steps, in words. */
export function commissioningText(commissioning: Pick<Commissioning, 'state' | 'missing'>): string {
  if (commissioning.state === 'commissioned') return COMMISSIONING_WORDS.commissioned;
  const words = COMMISSIONING_WORDS[commissioning.state];
  // The words of a failed step already name it; the rest still missing follow.
  const named: CommissioningStep | null =
    commissioning.state === 'not-commissioned'
      ? 'function test'
      : commissioning.state === 'parameters-differ'
        ? 'parameter verification'
        : null;
  const rest = commissioning.missing.filter((step) => step !== named);
  return rest.length > 0 ? `${words} (missing: ${rest.join(', ')})` : words;
}

/** The state and the missing steps alone, as screens and JSON output carry them. */
export function commissioningViewOf(
  entries: readonly LedgerEntry[],
  serialNumber: string,
): Pick<Commissioning, 'state' | 'missing'> {
  const { state, missing } = commissioningOf(entries, serialNumber);
  return { state, missing };
}

const STEP_SHORT: Record<CommissioningStep, string> = {
  'configuration apply': 'apply',
  'parameter verification': 'parameters',
  'function test': 'function test',
};

/** A table cell's words: "commissioned", "function test failed", "needs parameters, function test". */
export function commissioningShortText(commissioning: Pick<Commissioning, 'state' | 'missing'>): string {
  if (commissioning.state === 'commissioned') return 'commissioned';
  if (commissioning.state === 'not-commissioned') return 'function test failed';
  if (commissioning.state === 'parameters-differ') return 'parameters differ';
  return `needs ${commissioning.missing.map((step) => STEP_SHORT[step]).join(', ')}`;
}
