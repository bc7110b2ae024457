import { describe, expect, it } from 'vitest';
import { commissioningOf, commissioningShortText, commissioningText } from '../../domain/ledger-commissioning';
import { signedLedgerEntry } from '../fixtures/ledger';

const apply = (outcome: 'success' | 'failure') =>
  signedLedgerEntry({ action: 'configuration-apply', outcome, serialNumber: 'EPC000101' });
const test = (outcome: 'success' | 'failure', serialNumber = 'EPC000101') =>
  signedLedgerEntry({ action: 'function-test', outcome, serialNumber });
/** A parameter verification: matched or not, confirmed by a person or not. */
const params = (
  outcome: 'success' | 'failure',
  confirmedBy: string | null = outcome === 'success' ? 'Ada Lovelace' : null,
) =>
  signedLedgerEntry({ action: 'parameter-verification', outcome, serialNumber: 'EPC000101', facts: { confirmedBy } });

describe('commissioningOf', () => {
  it('needs both steps after an apply, and says which are missing', () => {
    expect(commissioningOf([apply('success')], 'EPC000101')).toMatchObject({
      state: 'unverified',
      missing: ['parameter verification', 'function test'],
    });
    expect(commissioningOf([apply('success'), params('success')], 'EPC000101')).toMatchObject({
      state: 'untested',
      missing: ['function test'],
    });
    expect(commissioningOf([apply('success'), test('success')], 'EPC000101')).toMatchObject({
      state: 'unverified',
      missing: ['parameter verification'],
    });
    expect(commissioningText(commissioningOf([apply('success'), test('success')], 'EPC000101'))).toMatch(
      /not commissioned.*missing: parameter verification/,
    );
  });

  it('says the parameters differ when the last verification failed, and a failed test outranks it', () => {
    const differ = commissioningOf([apply('success'), params('failure')], 'EPC000101');
    expect(differ).toMatchObject({ state: 'parameters-differ', missing: ['parameter verification', 'function test'] });
    expect(commissioningText(differ)).toBe(
      'NOT commissioned: the parameters running on the device differ from its configuration (missing: function test)',
    );
    expect(
      commissioningText(commissioningOf([apply('success'), params('success'), test('failure')], 'EPC000101')),
    ).toBe('NOT commissioned: the function test failed');
    expect(commissioningShortText(differ)).toBe('parameters differ');
    expect(commissioningOf([apply('success'), params('failure'), test('failure')], 'EPC000101').state).toBe(
      'not-commissioned',
    );
  });

  it('names the apply as missing when this ledger has none', () => {
    expect(commissioningOf([], 'EPC000101').missing).toEqual([
      'configuration apply',
      'parameter verification',
      'function test',
    ]);
    expect(commissioningShortText(commissioningOf([], 'EPC000101'))).toBe('needs apply, parameters, function test');
  });

  it('is commissioned with confirmed parameters and a passed test', () => {
    expect(commissioningOf([apply('success'), params('success'), test('success')], 'EPC000101')).toMatchObject({
      state: 'commissioned',
      missing: [],
    });
  });

  it('does not count parameters that matched but no one confirmed, nor a later failed verification', () => {
    expect(commissioningOf([apply('success'), params('success', null), test('success')], 'EPC000101').state).toBe(
      'unverified',
    );
    expect(
      commissioningOf([apply('success'), params('success'), params('failure'), test('success')], 'EPC000101').state,
    ).toBe('parameters-differ');
    expect(
      commissioningOf([apply('success'), params('success'), params('success', null), test('success')], 'EPC000101')
        .state,
    ).toBe('commissioned');
  });

  it('follows the last test after the last successful apply', () => {
    const verified = [apply('success'), params('success')];
    expect(commissioningOf([...verified, test('success'), test('failure')], 'EPC000101').state).toBe(
      'not-commissioned',
    );
    expect(commissioningOf([...verified, test('failure'), test('success')], 'EPC000101').state).toBe('commissioned');
  });

  it('needs both again after a new apply, and ignores a failed apply and other devices', () => {
    expect(
      commissioningOf([apply('success'), params('success'), test('success'), apply('success')], 'EPC000101').state,
    ).toBe('unverified');
    expect(
      commissioningOf([apply('success'), params('success'), test('success'), apply('failure')], 'EPC000101').state,
    ).toBe('commissioned');
    expect(
      commissioningOf([apply('success'), params('success'), test('success', 'EPC000102')], 'EPC000101').state,
    ).toBe('untested');
  });
});
