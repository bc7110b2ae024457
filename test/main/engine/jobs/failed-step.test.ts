import { describe, expect, it } from 'vitest';
import type { JobEnvironment } from '../../../../main/engine/jobs/context';
import type { DeviceConnection, DeviceIdentity } from '../../../../main/engine/jobs/device-port';
import { confirmFailure, failedStepResult } from '../../../../main/engine/jobs/failed-step';
import type { Failure } from '../../../../main/engine/jobs/failure';
import { IntentJournal, type NewJobIntent } from '../../../../main/engine/jobs/intent-journal';
import type { DeviceObservation } from '../../../../main/engine/jobs/reconcile';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

/** The end both device jobs share after a failure: read the device once more, reconcile, say what failed. */

const identity: DeviceIdentity = {
  serialNumber: 'EPC000101',
  deviceType: 'EPC',
  model: 'EPC-1',
  firmwareVersion: '2.1.0',
  configSyncId: null,
  bootId: 7,
};

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

const failure = (cancelled: boolean): Failure => ({
  code: cancelled ? 'CANCELLED' : 'DEVICE_TIMEOUT',
  message: 'the device stopped answering',
  hint: 'run the same job again',
  resumable: true,
  cancelled,
  reason: cancelled ? null : { cause: 'deviceTimeout', step: 'firmware', place: 'upload', percent: 48, tries: 3 },
});

describe('a failed device job', () => {
  it('reads the device once more, reconciles what it runs, and names the failure with its hint', async () => {
    const { seen, session, env } = fakes();
    const result = await failedStepResult(env, session, failure(false), {
      confirmation: 'queued',
      notice: 'a notice',
      resumable: true,
    });
    expect(seen).toEqual({ reads: 1, observed: ['EPC000101 2.1.0'] });
    expect(result).toEqual({
      phase: 'failed',
      outcome: 'failed',
      resultMessage: 'the device stopped answering; run the same job again',
      errorCode: 'DEVICE_TIMEOUT',
      resumable: true,
      confirmation: 'queued',
      notice: 'a notice',
      // The same failure as codes and values, for the screens and the CLI to say in any language.
      failureReason: { cause: 'deviceTimeout', step: 'firmware', place: 'upload', percent: 48, tries: 3 },
    });
  });

  it('when cancelled, leaves the device alone and says cancelled', async () => {
    const { seen, session, env } = fakes();
    const result = await failedStepResult(env, session, failure(true), {
      confirmation: 'none',
      notice: null,
      resumable: false,
    });
    expect(seen).toEqual({ reads: 0, observed: [] });
    expect(result).toMatchObject({
      phase: 'cancelled',
      outcome: 'cancelled',
      errorCode: 'CANCELLED',
      resumable: false,
      confirmation: 'none',
      notice: null,
    });
  });
});

/** A failed job's own confirmation and its intent: the intent goes only once the confirmation is sent or queued. */
describe('confirming a failed job', () => {
  const scratch = useScratchDirPerTest('failed-step');
  const newIntent: NewJobIntent = {
    jobId: 'job-1',
    kind: 'firmware',
    serviceUrl: 'http://127.0.0.1:1',
    orgId: 'org-1',
    serialNumber: 'EPC000101',
    firmwareVersion: '2.1.0',
    syncId: null,
    phase: 'transfer',
  };
  // Written as by a process that has ended, and read by this one: what is left is what the next start judges.
  const journal = () => new IntentJournal({ dir: scratch.dir, isAlive: () => false, pid: 999_999_999 });
  const leftForNextStart = async () =>
    (await new IntentJournal({ dir: scratch.dir, isAlive: () => false }).orphans()).map((kept) => kept.jobId);

  it('clears the intent once the outbox took the confirmation', async () => {
    const intents = journal();
    const intent = await intents.record(newIntent);
    expect(await confirmFailure(intents, intent, async () => 'queued')).toBe('queued');
    expect(await leftForNextStart()).toEqual([]);
  });

  it('keeps the intent, for the next contact with the device, when the outbox cannot take the confirmation', async () => {
    const intents = journal();
    const intent = await intents.record(newIntent);
    const outcome = await confirmFailure(intents, intent, async () => {
      throw new Error('ENOSPC: no space left on device');
    });
    expect(outcome).toBe('none');
    expect(await leftForNextStart()).toEqual(['job-1']);
  });

  it('confirms nothing when no intent was recorded: the device was not touched', async () => {
    let asked = 0;
    const outcome = await confirmFailure(journal(), undefined, async () => {
      asked += 1;
      return 'sent';
    });
    expect({ outcome, asked }).toEqual({ outcome: 'none', asked: 0 });
  });
});
