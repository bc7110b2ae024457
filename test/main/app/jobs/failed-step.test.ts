import { describe, expect, it } from 'vitest';
import type { JobEnvironment } from '../../../../main/app/jobs/context';
import type { DeviceConnection, DeviceIdentity } from '../../../../main/app/jobs/device-port';
import { failedStepResult } from '../../../../main/app/jobs/failed-step';
import type { Failure } from '../../../../main/app/jobs/failure';
import type { DeviceObservation } from '../../../../main/app/jobs/reconcile';

/** The end both device jobs share after a failure: read the device once more, reconcile, say what failed. */

const identity: DeviceIdentity = { serialNumber: 'EPC000101', deviceType: 'EPC', model: 'EPC-1', firmwareVersion: '2.1.0', configSyncId: null, bootId: 7 };

function fakes() {
  const seen: { reads: number; observed: string[] } = { reads: 0, observed: [] };
  const session = {
    identify: async () => {
      seen.reads += 1;
      return identity;
    },
  } as unknown as DeviceConnection;
  const env: Pick<JobEnvironment, 'reconciler' | 'now'> = {
    now: () => new Date('2026-01-01T00:00:00Z'),
    reconciler: {
      reconcile: async (observations: DeviceObservation[]) => {
        seen.observed.push(...observations.map((o) => `${o.serialNumber} ${o.firmwareVersion}`));
        return [];
      },
      settleInterrupted: async () => [],
    } as unknown as JobEnvironment['reconciler'],
  };
  return { seen, session, env };
}

const failure = (cancelled: boolean): Failure => ({ code: cancelled ? 'CANCELLED' : 'DEVICE_TIMEOUT', message: 'the device stopped answering', hint: 'run the same job again', resumable: true, cancelled });

describe('a failed device job', () => {
  it('reads the device once more, reconciles what it runs, and names the failure with its hint', async () => {
    const { seen, session, env } = fakes();
    const result = await failedStepResult(env, session, failure(false), { confirmation: 'queued', notice: 'a notice', resumable: true });
    expect(seen).toEqual({ reads: 1, observed: ['EPC000101 2.1.0'] });
    expect(result).toEqual({
      phase: 'failed',
      outcome: 'failed',
      resultMessage: 'the device stopped answering; run the same job again',
      errorCode: 'DEVICE_TIMEOUT',
      resumable: true,
      confirmation: 'queued',
      notice: 'a notice',
    });
  });

  it('when cancelled, leaves the device alone and says cancelled', async () => {
    const { seen, session, env } = fakes();
    const result = await failedStepResult(env, session, failure(true), { confirmation: 'none', notice: null, resumable: false });
    expect(seen).toEqual({ reads: 0, observed: [] });
    expect(result).toMatchObject({ phase: 'cancelled', outcome: 'cancelled', errorCode: 'CANCELLED', resumable: false, confirmation: 'none', notice: null });
  });
});
