import { describe, expect, it } from 'vitest';
import { decideConfigFile, FileFormatError, type HeldConfiguration } from '../../../domain/files';

const A = { orgId: 'plant-a', keyId: 'a'.repeat(32) };
const B = { orgId: 'plant-b', keyId: 'b'.repeat(32) };

function file(sequence: number, syncId = `sync-${sequence}`, org = A) {
  return { ...org, sequence, syncId };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof FileFormatError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('whether a device takes a configuration file', () => {
  const unclaimed: HeldConfiguration = { claim: null, applied: null };
  const heldByA: HeldConfiguration = { claim: A, applied: { sequence: 5, syncId: 'sync-5' } };

  it('takes any organization’s file while unclaimed', () => {
    expect(decideConfigFile(file(1), unclaimed)).toBe('apply');
    expect(decideConfigFile(file(1, 's', B), unclaimed)).toBe('apply');
  });

  it('takes only newer files of the organization that claimed it', () => {
    expect(decideConfigFile(file(6), heldByA)).toBe('apply');
    expect(refusal(() => decideConfigFile(file(4), heldByA))).toBe('CONFIG_SUPERSEDED');
    expect(refusal(() => decideConfigFile(file(6, 's', B), heldByA))).toBe('CONFIG_WRONG_ORGANIZATION');
    // Same organization id, another key: not the key it trusts.
    expect(refusal(() => decideConfigFile(file(6, 's', { orgId: A.orgId, keyId: 'c'.repeat(32) }), heldByA))).toBe(
      'CONFIG_WRONG_ORGANIZATION',
    );
  });

  it('changes nothing for the file it applied, and refuses another file with the same sequence', () => {
    expect(decideConfigFile(file(5), heldByA)).toBe('unchanged');
    expect(decideConfigFile(file(5, 'SYNC-5'), heldByA)).toBe('unchanged');
    expect(refusal(() => decideConfigFile(file(5, 'sync-other'), heldByA))).toBe('CONFIG_SUPERSEDED');
  });

  it('says which file the device holds when it refuses an older one', () => {
    expect(() => decideConfigFile(file(2), heldByA)).toThrow(
      'The configuration file has sequence 2; the device applied a newer one (sequence 5, syncId sync-5)',
    );
    expect(() => decideConfigFile(file(9, 's', B), heldByA)).toThrow(
      /signed by organization plant-b; the device belongs to organization plant-a/,
    );
  });
});
