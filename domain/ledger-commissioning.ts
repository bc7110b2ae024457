import type { LedgerEntry } from './ledger';

/**
 * Whether a device is commissioned, by its ledger: the last function test after its last
 * successful configuration apply decides. A failed test leaves it not commissioned until a test
 * passes; an apply since the last test needs a new test (the safety function may have changed).
 */
export type CommissioningState = 'commissioned' | 'not-commissioned' | 'untested';

export interface Commissioning {
  state: CommissioningState;
  /** The apply the state is about. */
  apply: LedgerEntry | undefined;
  /** The test that decided it. */
  test: LedgerEntry | undefined;
}

export function commissioningOf(entries: readonly LedgerEntry[], serialNumber: string): Commissioning {
  const mine = entries.filter((entry) => entry.serialNumber === serialNumber);
  const applyIndex = mine.findLastIndex((entry) => entry.action === 'configuration-apply' && entry.outcome === 'success');
  const apply = applyIndex >= 0 ? mine[applyIndex] : undefined;
  const test = mine.slice(applyIndex + 1).findLast((entry) => entry.action === 'function-test');
  if (!test) return { state: 'untested', apply, test: undefined };
  return { state: test.outcome === 'success' ? 'commissioned' : 'not-commissioned', apply, test };
}

export const COMMISSIONING_WORDS: Record<CommissioningState, string> = {
  commissioned: 'commissioned (function test passed)',
  'not-commissioned': 'NOT commissioned: the function test failed',
  untested: 'not commissioned: no function test since the configuration was applied',
};
