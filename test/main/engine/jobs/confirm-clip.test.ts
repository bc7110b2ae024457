import { describe, expect, it } from 'vitest';
import { configurationConfirmationSchema, firmwareConfirmationSchema } from '../../../../domain/confirmations';
import { TEXT_LIMITS } from '../../../../domain/text-limits';
import { clipApplyError, configurationConfirmation, firmwareConfirmation } from '../../../../main/engine/jobs/confirm';

const address = { serviceUrl: 'http://127.0.0.1:1', orgId: 'demo' };
const moment = { appliedAt: new Date(), observedAt: new Date(), reason: 'job-result' as const };

describe('a failure confirmation with a very long device error', () => {
  it('is clipped to what the service accepts, so it is recorded instead of refused', () => {
    const huge = `FW_FLASH_WRITE ${'x'.repeat(2_000_000)}`;
    const firmware = firmwareConfirmation(
      address,
      'EPC000101',
      { success: false, version: '1.0.0', error: huge },
      moment,
    );
    const configuration = configurationConfirmation(
      address,
      'EPC000101',
      { success: false, syncId: '3f2b1c9e-5d4a-4e8b-9c7d-1a2b3c4d5e6f', error: huge },
      moment,
    );
    for (const [confirmation, schema] of [
      [firmware, firmwareConfirmationSchema],
      [configuration, configurationConfirmationSchema],
    ] as const) {
      const error = (confirmation.payload as { error: string }).error;
      expect(error.length).toBe(TEXT_LIMITS.applyError);
      expect(error.startsWith('FW_FLASH_WRITE')).toBe(true);
      expect(error.endsWith('(cut)')).toBe(true);
      expect(schema.safeParse(confirmation.payload).error?.issues ?? []).toEqual([]);
    }
  });

  it('leaves an error that fits as it is', () => {
    expect(clipApplyError('FW_HASH_MISMATCH')).toBe('FW_HASH_MISMATCH');
    const exact = 'y'.repeat(TEXT_LIMITS.applyError);
    expect(clipApplyError(exact)).toBe(exact);
  });
});
