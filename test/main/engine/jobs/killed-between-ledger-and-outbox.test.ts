import { beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../../main/cloud';
import {
  createJobsEngine,
  IntentJournal,
  provisioningPaths,
  type DeviceConnector,
  type JobsEngine,
} from '../../../../main/engine/jobs';
import { confirmConfiguration, confirmFirmware, type ConfirmationAddress } from '../../../../main/engine/jobs/confirm';
import type { DeviceObservation } from '../../../../main/engine/jobs/reconcile';
import { confirmationLedger, type LedgerEntry } from '../../../../main/engine/ledger';
import type { Outbox } from '../../../../main/engine/outbox/outbox';
import { demoConfigurations } from '../../../../server/seed/demo-configurations';
import { useScratchDirPerTest } from '../../../fixtures/scratch';
import { demoServicePerFile } from '../../../fixtures/test-core';

/**
 * A job's outcome goes to the workstation's ledger first (fsync'd), then to the outbox (confirm.ts).
 * A Station SIGKILLed between the two left an entry no confirmation carried, and the next process
 * judged the interrupted job again under a new entry: the soak bench counted the first one lost
 * (docs/performance.md). Here the kill is a fault injected between the two steps of the real
 * confirm functions, over a real data directory (ledger file, outbox and intent folders); a fresh
 * jobs engine on the same directory then settles the job, and the demo service over HTTP is asked
 * what it stored.
 */

/** A pid no process has: the intent's process is gone, as after the kill. */
const GONE_PID = 999_999_999;
const ORG = 'demo';
const DAY_MS = 24 * 60 * 60_000;
/** A device of the demo's first configuration: the service issues its configuration file's syncId. */
const CONFIGURED_EPC = demoConfigurations()[0]!
  .seeded.devices.map((d) => d.payload.serialNumber)
  .find((s) => s.startsWith('EPC'))!;

const demo = demoServicePerFile({ configurations: true });
const scratch = useScratchDirPerTest('killed-between-ledger-and-outbox');
let client: ServiceClient;

beforeAll(async () => {
  client = createServiceClient({ baseUrl: demo.service.url, orgId: ORG, apiKey: demo.adminKey });
  for (const serialNumber of ['EPC000101', 'EPC000102', 'EPC000103', 'EPC000104']) {
    await client.devices.register({ serialNumber, name: `Unit ${serialNumber}` });
  }
}, 120_000);

/** No device is attached in these tests: the jobs were interrupted before they started. */
const noDevices: DeviceConnector = {
  connect: () => Promise.reject(new Error('no device is attached in this test')),
};

/** A jobs engine on the test's data directory, signed in to the demo service (its outbox can send unless `canSend` is false). */
function engine(options: { canSend?: boolean } = {}): JobsEngine {
  const canSend = options.canSend ?? true;
  return createJobsEngine({
    dataDir: scratch.dir,
    account: () => ({ client, serviceUrl: demo.service.url, orgId: ORG }),
    clientFor: (url, orgId) => (canSend && url === demo.service.url && orgId === ORG ? client : undefined),
    connector: noDevices,
  });
}

type Step =
  | { kind: 'firmware'; serialNumber: string; version: string }
  | { kind: 'configuration'; serialNumber: string; syncId: string };

/**
 * A Station's job of `step` that got as far as `until` and was then killed: its intent recorded
 * (by a process now gone), its outcome appended to the ledger by confirm.ts, and then either
 * nothing more ('ledger': the kill fell between the append and the outbox write) or also the
 * outbox written ('outbox': the kill fell before the intent was cleared). Returns the entry.
 */
async function killedStation(
  step: Step,
  until: 'ledger' | 'outbox',
  options: { canSend?: boolean; startedAt?: number } = {},
): Promise<LedgerEntry> {
  const station = engine(options);
  const startedAt = options.startedAt ?? Date.now();
  await new IntentJournal({ dir: provisioningPaths(scratch.dir).intents, pid: GONE_PID, now: () => startedAt }).record({
    jobId: `job-${step.serialNumber}`,
    kind: step.kind,
    serviceUrl: demo.service.url,
    orgId: ORG,
    serialNumber: step.serialNumber,
    firmwareVersion: step.kind === 'firmware' ? step.version : null,
    syncId: step.kind === 'configuration' ? step.syncId : null,
    phase: 'applying',
  });
  // The ledger as the engine gives it to its jobs (jobs-engine.ts).
  const address: ConfirmationAddress = {
    serviceUrl: demo.service.url,
    orgId: ORG,
    workstation: await station.workstation(),
    ledger: confirmationLedger(station.ledger, async () => ({ workstation: await station.workstation() })),
  };
  const killed: Pick<Outbox, 'deliver'> = {
    deliver: () => Promise.reject(new Error('SIGKILL between the ledger append and the outbox write')),
  };
  const outbox = until === 'ledger' ? killed : station.outbox;
  const at = new Date(startedAt + 60_000);
  const confirming =
    step.kind === 'firmware'
      ? confirmFirmware(outbox, address, step.serialNumber, { success: true, version: step.version }, at)
      : confirmConfiguration(outbox, address, step.serialNumber, { success: true, syncId: step.syncId }, at);
  if (until === 'ledger') await expect(confirming).rejects.toThrow('SIGKILL');
  else await confirming;
  await station.close();
  const entries = await station.ledger.entries();
  expect(entries).toHaveLength(1);
  return entries[0]!;
}

/** What the device reports when it is next seen: what the job put there. */
function seen(step: Step): DeviceObservation {
  return {
    serialNumber: step.serialNumber,
    firmwareVersion: step.kind === 'firmware' ? step.version : '1.0.0',
    configSyncId: step.kind === 'configuration' ? step.syncId : null,
    observedAt: new Date(),
  };
}

/** The ledger's entries for the step's action on its device. */
async function entriesFor(recovered: JobsEngine, step: Step): Promise<LedgerEntry[]> {
  const action = step.kind === 'firmware' ? 'firmware-install' : 'configuration-apply';
  return (await recovered.ledger.entries()).filter((e) => e.serialNumber === step.serialNumber && e.action === action);
}

/** The ledger hashes of the service's stored confirmations of this kind for the device (null for one without). */
async function storedHashes(step: Step): Promise<Array<string | null>> {
  const { rows } = await demo.service.db.query<{ hash: string | null }>(
    "SELECT payload->>'ledgerHash' AS hash FROM confirmations WHERE serial_number = $1 AND kind = $2 ORDER BY received_at",
    [step.serialNumber, step.kind],
  );
  return rows.map((r) => r.hash);
}

async function issuedSyncId(serialNumber: string): Promise<string> {
  const { syncId } = await client.devices.fetchConfigurationFile(serialNumber);
  if (!syncId) throw new Error(`the service issued no syncId for ${serialNumber}`);
  return syncId.toLowerCase();
}

describe('a Station killed between the ledger append and the outbox write', () => {
  it('is confirmed by the next process under the entry it recorded: one ledger entry, one stored confirmation carrying its hash (firmware)', async () => {
    const step: Step = { kind: 'firmware', serialNumber: 'EPC000101', version: '1.1.0' };
    const recorded = await killedStation(step, 'ledger');
    expect(await storedHashes(step)).toEqual([]);

    const recovered = engine();
    const [outcome] = await recovered.reconcile([seen(step)]);
    expect(outcome!.interrupted).toEqual([expect.objectContaining({ success: true })]);
    expect(outcome!.confirmation).toBe('sent');

    expect((await entriesFor(recovered, step)).map((e) => e.hash)).toEqual([recorded.hash]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    expect(await recovered.outbox.list()).toEqual([]);
    // Seen again: the job is settled, nothing more is said or recorded.
    await recovered.reconcile([seen(step)]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    expect(await entriesFor(recovered, step)).toHaveLength(1);
    await recovered.close();
  });

  it('is confirmed under the entry it recorded for a configuration apply too (the soak bench lost one such)', async () => {
    const step: Step = {
      kind: 'configuration',
      serialNumber: CONFIGURED_EPC,
      syncId: await issuedSyncId(CONFIGURED_EPC),
    };
    const recorded = await killedStation(step, 'ledger');

    const recovered = engine();
    await recovered.reconcile([seen(step)]);

    expect((await entriesFor(recovered, step)).map((e) => e.hash)).toEqual([recorded.hash]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    const [stored] = (await client.devices.list({ serial: step.serialNumber })).items;
    expect(stored?.deployedSyncId?.toLowerCase()).toBe(step.syncId);
    await recovered.close();
  });

  it('is confirmed under the entry it recorded when its device is not seen again in time and the job expires', async () => {
    const step: Step = { kind: 'firmware', serialNumber: 'EPC000104', version: '1.1.0' };
    const recorded = await killedStation(step, 'ledger', { startedAt: Date.now() - 31 * DAY_MS });

    const recovered = engine();
    expect(await recovered.recoverInterrupted()).toBe(1);
    expect((await recovered.outbox.list()).map((e) => e.payload.ledgerHash)).toEqual([recorded.hash]);
    await recovered.outbox.syncNow();

    expect((await entriesFor(recovered, step)).map((e) => e.hash)).toEqual([recorded.hash]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    await recovered.close();
  });
});

describe('a Station killed after the outbox write, before it cleared the intent', () => {
  it('is not confirmed twice when the confirmation had reached the service: the replay under the same entry changes nothing', async () => {
    const step: Step = { kind: 'firmware', serialNumber: 'EPC000102', version: '1.1.0' };
    const recorded = await killedStation(step, 'outbox');
    expect(await storedHashes(step)).toEqual([recorded.hash]);

    const recovered = engine();
    const [outcome] = await recovered.reconcile([seen(step)]);
    expect(outcome!.interrupted).toEqual([expect.objectContaining({ success: true })]);

    expect((await entriesFor(recovered, step)).map((e) => e.hash)).toEqual([recorded.hash]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    expect(await recovered.outbox.list()).toEqual([]);
    await recovered.close();
  });

  it('is not written to the outbox twice when the confirmation still waited there', async () => {
    const step: Step = { kind: 'firmware', serialNumber: 'EPC000103', version: '1.1.0' };
    const recorded = await killedStation(step, 'outbox', { canSend: false });

    const recovered = engine({ canSend: false });
    await recovered.reconcile([seen(step)]);
    expect((await recovered.outbox.list()).map((e) => e.payload.ledgerHash)).toEqual([recorded.hash]);
    await recovered.close();

    // Sent when it can be (forced: it waited for credentials, and would otherwise wait out its backoff).
    const online = engine();
    await online.outbox.syncNow({ force: true });
    expect((await entriesFor(online, step)).map((e) => e.hash)).toEqual([recorded.hash]);
    expect(await storedHashes(step)).toEqual([recorded.hash]);
    expect(await online.outbox.list()).toEqual([]);
    await online.close();
  });
});
