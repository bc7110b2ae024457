import { englishWords, type Words } from './domain-words';

/**
 * Why a link of a ledger does not hold, as a code and its values: the ledger's checks decide it
 * (domain/ledger.ts, domain/workstation-keys.ts, main/engine/ledger), and keep its English sentence
 * as the broken link's `reason` (`--json`, the report, logs); `ledger verify` says it in the
 * reader's language from the core catalog (`core:ledger.*`). Hashes travel in the short form
 * the sentence shows (12 hex digits), keys as their last 12 characters.
 */
export type LedgerLinkFault =
  // A line of the file that is not an entry.
  | { kind: 'notJson' }
  /** `field`: the first field that is wrong, when the line was JSON. */
  | { kind: 'notAnEntry'; field: string | null }
  // The entry's own hash and signature.
  | { kind: 'contentNotHash' }
  | { kind: 'signatureNotHash' }
  | { kind: 'signatureUnreadable' }
  // The chain's links.
  | { kind: 'linksElsewhere'; linksTo: string; previous: string }
  | { kind: 'numberOutOfOrder'; seq: number; expected: number }
  | { kind: 'startCut'; seq: number; linksTo: string }
  // The sealed head.
  | { kind: 'headUnreadable' }
  | { kind: 'headNotSigned' }
  | { kind: 'endCut'; headSeq: number; headHash: string; endsAt: number }
  | { kind: 'endReplaced'; seq: number; headHash: string; fileHash: string }
  // Whose entry it is.
  /** In the report's read from the head: signed by another key, so the report leaves it out. */
  | { kind: 'signedElsewhereLeftOut'; key: string }
  | { kind: 'otherWorkstation'; workstation: string; own: string }
  | { kind: 'notOwnKey'; key: string; ownKey: string }
  | { kind: 'notEnrolledKey'; workstation: string; key: string }
  | { kind: 'noEnrolledKey'; workstation: string; key: string }
  | { kind: 'keyOfOtherWorkstation'; workstation: string; keyWorkstation: string }
  | {
      kind: 'keyEnded';
      how: 'revoked' | 'rotated';
      endedAt: string | null;
      endedBy: string | null;
      /** The reason the admin gave, as typed. */
      why: string | null;
      validThroughSeq: number;
    }
  // The service's copy against the local one.
  | { kind: 'missingHere'; seq: number }
  | { kind: 'changedHere'; seq: number; serviceHash: string; localHash: string }
  // The organization's chain on the service.
  | { kind: 'orgNumberMissing'; expected: number }
  | { kind: 'orgNotLinked' }
  | { kind: 'orgLinkHashWrong' }
  /** A fault of an entry of the organization's chain, named by its place there. */
  | { kind: 'inOrgChain'; orgSeq: number; workstation: string; seq: number; fault: LedgerLinkFault };

/** The short form of a hash the sentences show. */
export const shortHash = (hash: string): string => hash.slice(0, 12);

/** The fault in words: English by default, the sentence the ledger's checks write as `reason`. */
export function ledgerLinkFaultText(fault: LedgerLinkFault, words: Words = englishWords()): string {
  switch (fault.kind) {
    case 'notAnEntry':
      return words.t('core:ledger.notAnEntry', {
        hasField: fault.field === null ? 'no' : 'yes',
        field: fault.field ?? '',
      });
    case 'keyEnded':
      return words.t('core:ledger.keyEnded', {
        how: fault.how,
        hasDate: fault.endedAt === null ? 'no' : 'yes',
        endedAt: fault.endedAt ?? '',
        hasUser: fault.endedBy === null ? 'no' : 'yes',
        endedBy: fault.endedBy ?? '',
        hasWhy: fault.why === null ? 'no' : 'yes',
        why: fault.why ?? '',
        validThroughSeq: String(fault.validThroughSeq),
      });
    case 'inOrgChain':
      return words.t('core:ledger.inOrgChain', {
        orgSeq: String(fault.orgSeq),
        workstation: fault.workstation,
        seq: String(fault.seq),
        fault: ledgerLinkFaultText(fault.fault, words),
      });
    default: {
      // Entry numbers are names, not amounts: said as written ("entry 1204"), never grouped.
      const { kind, ...values } = fault;
      return words.t(
        `core:ledger.${kind}`,
        Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)])),
      );
    }
  }
}

/** A broken link as the ledger's checks name it: where, the English reason, and the fault when known. */
export interface NamedBrokenLink {
  line: number;
  seq?: number;
  hash?: string;
  reason: string;
  why?: LedgerLinkFault;
}

/**
 * "entry 3 at line 3 (hash 9f2c…): its content does not match its hash (…)": where the link broke
 * and why, in the reader's words. A link without a fault (from an older core) keeps its English
 * reason.
 */
export function brokenLinkText(broken: NamedBrokenLink, words: Words = englishWords()): string {
  return words.t('core:ledger.brokenLink', {
    at: broken.seq === undefined ? 'line' : 'entry',
    line: String(broken.line),
    seq: String(broken.seq ?? ''),
    hasHash: broken.hash ? 'yes' : 'no',
    hash: broken.hash ? shortHash(broken.hash) : '',
    reason: broken.why ? ledgerLinkFaultText(broken.why, words) : broken.reason,
  });
}
