import { describe, expect, it } from 'vitest';
import { describeBrokenLink } from '../../domain/ledger';
import { createTranslator, LANGUAGES } from '../../domain/i18n/index.js';
import { brokenLinkText, ledgerLinkFaultText, type LedgerLinkFault } from '../../domain/ledger-link-fault';

/**
 * A broken ledger link as a code and its values (issue 29): the English is the sentence the
 * ledger's checks wrote before, every language has words for every fault, and the numbers, hashes,
 * keys and workstations stay as they are.
 */

const EVERY_FAULT: Record<LedgerLinkFault['kind'], LedgerLinkFault> = {
  notJson: { kind: 'notJson' },
  notAnEntry: { kind: 'notAnEntry', field: 'signature' },
  contentNotHash: { kind: 'contentNotHash' },
  signatureNotHash: { kind: 'signatureNotHash' },
  signatureUnreadable: { kind: 'signatureUnreadable' },
  linksElsewhere: { kind: 'linksElsewhere', linksTo: '0a1b2c3d4e5f', previous: '9f8e7d6c5b4a' },
  numberOutOfOrder: { kind: 'numberOutOfOrder', seq: 1207, expected: 1205 },
  startCut: { kind: 'startCut', seq: 41, linksTo: '0a1b2c3d4e5f' },
  headUnreadable: { kind: 'headUnreadable' },
  headNotSigned: { kind: 'headNotSigned' },
  endCut: { kind: 'endCut', headSeq: 12, headHash: '0a1b2c3d4e5f', endsAt: 9 },
  endReplaced: { kind: 'endReplaced', seq: 12, headHash: '0a1b2c3d4e5f', fileHash: '9f8e7d6c5b4a' },
  signedElsewhereLeftOut: { kind: 'signedElsewhereLeftOut', key: 'QUJDREVGR0hJ' },
  otherWorkstation: { kind: 'otherWorkstation', workstation: 'ws-other', own: 'ws-here' },
  notOwnKey: { kind: 'notOwnKey', key: 'QUJDREVGR0hJ', ownKey: 'WllYV1ZVVFNS' },
  notEnrolledKey: { kind: 'notEnrolledKey', workstation: 'ws-other', key: 'QUJDREVGR0hJ' },
  noEnrolledKey: { kind: 'noEnrolledKey', workstation: 'ws-other', key: 'QUJDREVGR0hJ' },
  keyOfOtherWorkstation: { kind: 'keyOfOtherWorkstation', workstation: 'ws-other', keyWorkstation: 'ws-here' },
  keyEnded: {
    kind: 'keyEnded',
    how: 'revoked',
    endedAt: '2026-11-02T08:00:00Z',
    endedBy: 'a.admin',
    why: 'laptop stolen',
    validThroughSeq: 17,
  },
  missingHere: { kind: 'missingHere', seq: 8 },
  changedHere: { kind: 'changedHere', seq: 8, serviceHash: '0a1b2c3d4e5f', localHash: '9f8e7d6c5b4a' },
  orgNumberMissing: { kind: 'orgNumberMissing', expected: 3 },
  orgNotLinked: { kind: 'orgNotLinked' },
  orgLinkHashWrong: { kind: 'orgLinkHashWrong' },
  inOrgChain: { kind: 'inOrgChain', orgSeq: 30, workstation: 'ws-other', seq: 4, fault: { kind: 'contentNotHash' } },
};

/** The values a reader must find in the sentence as they are. */
function valuesOf(fault: LedgerLinkFault): string[] {
  return Object.entries(fault).flatMap(([key, value]) =>
    key === 'kind' || key === 'how' || key === 'fault' || value === null ? [] : [String(value)],
  );
}

describe('a broken ledger link in words', () => {
  it('says in English what the checks said before', () => {
    expect(ledgerLinkFaultText(EVERY_FAULT.keyEnded)).toBe(
      'its key was revoked on 2026-11-02T08:00:00Z by a.admin (laptop stolen); only its entries up to 17 stay good',
    );
    expect(
      ledgerLinkFaultText({
        kind: 'keyEnded',
        how: 'rotated',
        endedAt: null,
        endedBy: null,
        why: null,
        validThroughSeq: 0,
      }),
    ).toBe(
      'its key was replaced by a rotation on an unknown date by an unknown user; only its entries up to 0 stay good',
    );
    expect(ledgerLinkFaultText(EVERY_FAULT.inOrgChain)).toBe(
      'organization entry 30 (workstation ws-other, entry 4): its content does not match its hash (it was changed after it was written)',
    );
    expect(ledgerLinkFaultText({ kind: 'notAnEntry', field: null })).toBe('its fields are not those of a ledger entry');
    // Where: as describeBrokenLink wrote it; entry numbers are never grouped ("1207", not "1,207").
    const broken = { line: 1207, seq: 1207, hash: 'ab'.repeat(32), reason: 'x', why: EVERY_FAULT.contentNotHash };
    expect(brokenLinkText(broken)).toBe(
      `entry 1207 at line 1207 (hash ${'ab'.repeat(6)}…): its content does not match its hash (it was changed after it was written)`,
    );
    expect(describeBrokenLink({ line: 3, reason: 'it is not valid JSON' })).toBe('line 3: it is not valid JSON');
  });

  for (const language of LANGUAGES) {
    it(`says every fault in ${language}, its values as they are`, () => {
      const words = createTranslator(language);
      for (const fault of Object.values(EVERY_FAULT)) {
        const said = ledgerLinkFaultText(fault, words);
        expect(said, fault.kind).not.toMatch(/core:|\{|\}/);
        for (const value of valuesOf(fault)) expect(said, `${fault.kind} in ${language}`).toContain(value);
        if (language !== 'en') expect(said, fault.kind).not.toBe(ledgerLinkFaultText(fault));
      }
    });
  }

  it('keeps the English reason of a link from an older core, which carries no fault', () => {
    expect(brokenLinkText({ line: 4, seq: 4, reason: 'something new' }, createTranslator('de'))).toBe(
      'Eintrag 4 in Zeile 4: something new',
    );
  });
});
