import { describe, expect, it } from 'vitest';
import { commissioningOf } from '../../domain/ledger-commissioning';
import { signedLedgerEntry } from '../fixtures/ledger';

const apply = (outcome: 'success' | 'failure') => signedLedgerEntry({ action: 'configuration-apply', outcome, serialNumber: 'EPC000101' });
const test = (outcome: 'success' | 'failure', serialNumber = 'EPC000101') => signedLedgerEntry({ action: 'function-test', outcome, serialNumber });

describe('commissioningOf', () => {
  it('is untested after an apply until a function test', () => {
    expect(commissioningOf([apply('success')], 'EPC000101').state).toBe('untested');
  });

  it('follows the last test after the last successful apply', () => {
    expect(commissioningOf([apply('success'), test('success')], 'EPC000101').state).toBe('commissioned');
    expect(commissioningOf([apply('success'), test('success'), test('failure')], 'EPC000101').state).toBe('not-commissioned');
    expect(commissioningOf([apply('success'), test('failure'), test('success')], 'EPC000101').state).toBe('commissioned');
  });

  it('needs a new test after a new apply, and ignores a failed apply and other devices', () => {
    expect(commissioningOf([apply('success'), test('success'), apply('success')], 'EPC000101').state).toBe('untested');
    expect(commissioningOf([apply('success'), test('success'), apply('failure')], 'EPC000101').state).toBe('commissioned');
    expect(commissioningOf([apply('success'), test('success', 'EPC000102')], 'EPC000101').state).toBe('untested');
  });
});
