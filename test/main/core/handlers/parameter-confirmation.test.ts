import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CoreError } from '../../../../contract/errors';
import {
  compareParameters,
  parameterChecksum,
  shortChecksum,
  type ParameterValues,
} from '../../../../domain/running-parameters';
import { parameterConfirmationHandlers } from '../../../../main/core/handlers/parameter-confirmation';
import { initialSnapshot, type JobSnapshot } from '../../../../main/engine/jobs/job-state';
import { Ledger } from '../../../../main/engine/ledger/ledger';
import type { AccountSession } from '../../../../main/core/account-session';
import { FileSecretStore } from '../../../../platform/secret-store';

/**
 * The core's side of the Workbench confirmation (issue 26), with a real ledger on disk: only the
 * device's short checksum typed by a named person confirms, a table that differs never does and
 * is recorded as a failed verification once, and nothing is written before someone acts.
 */

const INTENDED: ParameterValues = { 'safety.timeout': 500, 'safety.stopCategory': 'CAT0', 'ism.channel': 12 };

function job(jobId: string, running: ParameterValues): JobSnapshot {
  const comparison = compareParameters(INTENDED, {
    values: running,
    checksum: parameterChecksum(running),
    checksumBy: 'device',
  });
  return {
    ...initialSnapshot({
      jobId,
      linkId: 'serial:/dev/pts/9',
      action: 'configuration',
      serialNumber: 'EPC000101',
      now: new Date(),
    }),
    phase: comparison.match ? 'done' : 'failed',
    syncId: 'sync-1',
    link: 'serial:/dev/pts/9',
    parameters: comparison,
  };
}

const account = { kind: 'local', serviceUrl: 'http://127.0.0.1:1', orgId: 'org-1', keyName: null, client: {} };
const session = { require: () => account, current: () => account } as unknown as AccountSession;

let dir: string;
let ledger: Ledger;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'param-confirm-'));
  ledger = new Ledger({ dir: join(dir, 'ledger'), secrets: new FileSecretStore(join(dir, 'secrets.json')) });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function entries() {
  return (await ledger.readAll()).flatMap((line) => ('entry' in line ? [line.entry] : []));
}

function refusalOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'accepted',
    (err: unknown) => (err instanceof CoreError ? `${err.code}: ${err.message}` : String(err)),
  );
}

describe('workbench.confirmParameters', () => {
  it('refuses digits that are not the device checksum, takes its own with the person, and only once', async () => {
    const matching = job('job-1', { ...INTENDED });
    const { handlers } = parameterConfirmationHandlers({
      session,
      jobs: () => [matching],
      ledger,
      workstation: async () => 'ws-1',
    });
    const confirm = handlers['workbench.confirmParameters'];
    const right = shortChecksum(matching.parameters!.runningChecksum);
    const wrong = right.slice(0, 7) + (right.endsWith('0') ? '1' : '0');

    expect(await refusalOf(confirm({ jobId: 'job-1', checksum: wrong, technician: 'Dana Weber' }))).toContain(
      'VALIDATION: That is not the checksum the device reports',
    );
    expect(await refusalOf(confirm({ jobId: 'job-1', checksum: 'zz', technician: 'Dana Weber' }))).toContain(
      'Type the 8 hex digits',
    );
    expect(await entries()).toEqual([]);

    const view = await confirm({ jobId: 'job-1', checksum: ` ${right.toLowerCase()} `, technician: 'Dana Weber' });
    expect(view).toMatchObject({ serialNumber: 'EPC000101', confirmedBy: 'Dana Weber', checksumShort: right });
    const [entry, ...more] = await entries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'parameter-verification',
      outcome: 'success',
      serialNumber: 'EPC000101',
      workstation: 'ws-1',
    });
    expect(entry!.facts).toMatchObject({
      person: 'Dana Weber',
      confirmedBy: 'Dana Weber',
      checksumShort: right,
      toolName: 'Provisioner',
      link: 'serial:/dev/pts/9',
    });
    expect(entry!.seq).toBe(view.ledgerSeq);

    expect(await refusalOf(confirm({ jobId: 'job-1', checksum: right, technician: 'Sam Other' }))).toContain(
      'confirmed already, by Dana Weber',
    );
    expect(await entries()).toHaveLength(1);
  });

  it('never confirms a table that differs, even with the device checksum, and records the failure once', async () => {
    const differing = job('job-2', { ...INTENDED, 'safety.timeout': 600 });
    const { handlers, jobFinished } = parameterConfirmationHandlers({
      session,
      jobs: () => [differing],
      ledger,
      workstation: async () => 'ws-1',
    });
    await jobFinished(differing);
    const running = shortChecksum(differing.parameters!.runningChecksum);
    expect(
      await refusalOf(
        handlers['workbench.confirmParameters']({ jobId: 'job-2', checksum: running, technician: 'Dana Weber' }),
      ),
    ).toContain('the two checksums are not equal');
    const all = await entries();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ outcome: 'failure', error: expect.stringContaining('safety.timeout') });
    expect(all[0]!.facts).toMatchObject({ confirmedBy: null, 'p:safety.timeout': '500 → 600' });
  });

  it('writes nothing for a matching job that finished: a person confirms it', async () => {
    const matching = job('job-3', { ...INTENDED });
    const { jobFinished } = parameterConfirmationHandlers({
      session,
      jobs: () => [matching],
      ledger,
      workstation: async () => 'ws-1',
    });
    await jobFinished(matching);
    expect(await entries()).toEqual([]);
  });
});
