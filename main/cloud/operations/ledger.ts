import { ledgerAppendResultSchema, orgLedgerPageSchema, type LedgerEntry } from '../../../domain/ledger';
import type { CallOptions, Transport } from '../http';

/** The organization's ledger chain (ours): append a workstation's signed entries, read the chain by pages. */
export function ledgerOperations(t: Transport) {
  return {
    /** POST ledger/entries: safe to repeat, the service skips the entries it has (by hash). */
    append: (entries: readonly LedgerEntry[], call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/ledger/entries', body: { entries }, safeToRepeat: true },
        ledgerAppendResultSchema,
        call,
      ),
    /** GET ledger/entries?after=N: the next page of the chain, oldest first. */
    page: (after: number, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: '/ledger/entries', query: { after }, safeToRepeat: true },
        orgLedgerPageSchema,
        call,
      ),
  };
}
