import type { ServiceClient } from '../../cloud';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import type { NewConfirmation, OutboxEntry } from '../outbox/outbox-entry';
import type { Outbox } from '../outbox/outbox';
import type { ConfirmationLedger } from '../ledger/confirmation-ledger';
import {
  configurationConfirmation,
  firmwareConfirmation,
  interruptedConfirmation,
  type ConfirmationAddress,
} from './confirm';
import type { DeviceIdentity } from './device-port';
import type { IntentJournal, JobIntent } from './intent-journal';
import { closeInterruptedJob } from './recorded-outcome';

/**
 * Applied means observed. Every time the app or the CLI reads a device (identify, `device list`, a
 * job that finds it up to date or fails, the first contact after a crash), what the device reports
 * is compared here with what the service last recorded of it, and every difference is confirmed
 * through the outbox as an observation: the service learns what devices really run, also when no
 * job of ours put it there. Jobs an earlier process left unfinished are judged here too, from what
 * the device runs: a success when it runs what the job installed, a failure when it does not.
 */

/** What a device said when it was read. */
export interface DeviceObservation {
  serialNumber: string;
  firmwareVersion: string;
  /** null when it holds no configuration. */
  configSyncId: string | null;
  observedAt: Date;
}

export function observationOf(
  identity: Pick<DeviceIdentity, 'serialNumber' | 'firmwareVersion' | 'configSyncId'>,
  observedAt: Date,
): DeviceObservation {
  return {
    serialNumber: identity.serialNumber,
    firmwareVersion: identity.firmwareVersion,
    configSyncId: identity.configSyncId,
    observedAt,
  };
}

/** What reconciling one device did. */
export interface ReconcileOutcome {
  serialNumber: string;
  /** The service's record as read for the comparison: null when not registered here, undefined when it could not be read. */
  record: DeviceRecord | null | undefined;
  /** Interrupted jobs of this device now confirmed, with their outcome. */
  interrupted: Array<{ intent: JobIntent; success: boolean }>;
  /** The confirmations this contact wrote to the outbox. */
  confirmations: NewConfirmation[];
  /** 'sent' when the service has them all, 'queued' when some wait in the outbox, 'none' when there were none. */
  confirmation: 'sent' | 'queued' | 'none';
  /** Why the comparison with the service could not be made, if it could not. */
  error: string | null;
}

/** The account observations are compared against and confirmed to. */
export interface ReconcileAccount {
  client: { devices: Pick<ServiceClient['devices'], 'list'> };
  address: ConfirmationAddress;
}

export interface ReconcilerOptions {
  intents: IntentJournal;
  outbox: Pick<Outbox, 'enqueue' | 'syncNow' | 'list'>;
  /** The signed-in account now; without one only interrupted jobs are judged (their confirmations name their own service). */
  account: () => ReconcileAccount | undefined;
  workstation: () => Promise<string>;
  /**
   * Where an interrupted job's outcome is recorded before it is confirmed, as a finished job's is:
   * it is this workstation's action (docs/ledger.md), and its confirmation carries the entry's hash.
   * Observations are not recorded: they say what a device runs, not what this workstation did.
   */
  ledger?: ConfirmationLedger;
}

export class Reconciler {
  constructor(private readonly options: ReconcilerOptions) {}

  /**
   * Judges the interrupted jobs of these devices and confirms what they report that the service
   * has not recorded. `records`: the service's records when the caller has read them already.
   */
  async reconcile(
    observations: readonly DeviceObservation[],
    call: { signal?: AbortSignal; records?: ReadonlyMap<string, DeviceRecord | null> } = {},
  ): Promise<ReconcileOutcome[]> {
    return this.run(observations, call, true);
  }

  /** Only the interrupted jobs of these devices: a job about to work on a device settles its predecessors first. */
  async settleInterrupted(observations: readonly DeviceObservation[]): Promise<ReconcileOutcome[]> {
    return this.run(observations, {}, false);
  }

  private async run(
    observations: readonly DeviceObservation[],
    call: { signal?: AbortSignal; records?: ReadonlyMap<string, DeviceRecord | null> },
    compare: boolean,
  ): Promise<ReconcileOutcome[]> {
    const workstation = await this.options.workstation();
    const account = compare ? this.options.account() : undefined;
    const orphans = await this.options.intents.orphans();
    const said = compare ? await this.options.outbox.list() : [];
    const outcomes = await Promise.all(
      observations.map(async (observation): Promise<ReconcileOutcome> => {
        const outcome: ReconcileOutcome = {
          serialNumber: observation.serialNumber,
          record: undefined,
          interrupted: [],
          confirmations: [],
          confirmation: 'none',
          error: null,
        };
        // What this contact makes the service record, beside what it recorded before.
        const settled: { firmwareVersion?: string; syncId?: string } = {};
        for (const intent of orphans.filter((i) => i.serialNumber === observation.serialNumber)) {
          // Under the entry the job recorded before it was killed, if it did; else judged from the device.
          const closed = await closeInterruptedJob(
            intent,
            { orphans, ledger: this.options.ledger, outbox: this.options.outbox },
            () => {
              const judged = judgeInterrupted(intent, observation);
              const confirmation = interruptedConfirmation(intent, judged, observation.observedAt, workstation);
              return { success: judged.success, confirmation };
            },
          );
          outcome.confirmations.push(...closed.confirmations);
          await this.options.intents.clear(intent.jobId);
          outcome.interrupted.push({ intent, success: closed.success });
          if (closed.success && account && sameAccount(intent, account.address)) {
            if (intent.kind === 'firmware' && intent.firmwareVersion) settled.firmwareVersion = intent.firmwareVersion;
            if (intent.kind === 'configuration' && intent.syncId) settled.syncId = intent.syncId;
          }
        }
        if (!account) return outcome;
        try {
          outcome.record = call.records?.has(observation.serialNumber)
            ? call.records.get(observation.serialNumber)
            : await readRecord(account, observation.serialNumber, call.signal);
        } catch (err) {
          outcome.error = `The service could not be asked about ${observation.serialNumber}: ${err instanceof Error ? err.message : String(err)}`;
          return outcome;
        }
        // A device the organization has not registered cannot be confirmed (the service would refuse it).
        if (!outcome.record) return outcome;
        for (const confirmation of differences(observation, outcome.record, settled, {
          ...account.address,
          workstation,
        })) {
          if (alreadySaid(said, confirmation)) continue;
          await this.options.outbox.enqueue(confirmation);
          outcome.confirmations.push(confirmation);
        }
        return outcome;
      }),
    );
    if (outcomes.some((o) => o.confirmations.length > 0)) await this.deliver(outcomes);
    return outcomes;
  }

  /** One pass of the outbox for everything this contact wrote; what it could not send waits there. */
  private async deliver(outcomes: ReconcileOutcome[]): Promise<void> {
    const report = await this.options.outbox.syncNow().catch(() => undefined);
    const waiting = new Set(
      (await this.options.outbox.list().catch(() => [] as OutboxEntry[])).map((e) => entryKey(e)),
    );
    for (const outcome of outcomes) {
      if (outcome.confirmations.length === 0) continue;
      const queued = !report || report.skippedLocked || outcome.confirmations.some((c) => waiting.has(entryKey(c)));
      outcome.confirmation = queued ? 'queued' : 'sent';
    }
  }
}

/**
 * An interrupted job succeeded when the device runs what it installed (holds what it applied);
 * otherwise it failed: the device still runs the old version, or another one.
 */
export function judgeInterrupted(
  intent: JobIntent,
  observation: DeviceObservation,
): { success: true } | { success: false; error: string } {
  const when = `when ${intent.serialNumber} was next seen (${observation.observedAt.toISOString()})`;
  const stopped = `Interrupted: Provisioner stopped during ${intent.phase} (started ${intent.startedAt})`;
  if (intent.kind === 'firmware') {
    if (intent.firmwareVersion !== null && observation.firmwareVersion === intent.firmwareVersion)
      return { success: true };
    const old = observation.firmwareVersion === intent.previousFirmwareVersion ? ', the version it had before' : '';
    return {
      success: false,
      error: `${stopped}; ${when} it ran firmware ${observation.firmwareVersion}${old}, not ${intent.firmwareVersion ?? 'the new one'}.`,
    };
  }
  if (intent.syncId !== null && observation.configSyncId?.toLowerCase() === intent.syncId.toLowerCase())
    return { success: true };
  const held = observation.configSyncId === null ? 'no configuration' : `configuration ${observation.configSyncId}`;
  return { success: false, error: `${stopped}; ${when} it held ${held}, not ${intent.syncId ?? 'the new one'}.` };
}

/**
 * The observations that tell the service what it has not recorded: the firmware the device runs,
 * and the configuration it holds. A device that holds none says nothing about configuration (the
 * interface has no confirmation of "none").
 */
export function differences(
  observation: DeviceObservation,
  record: Pick<DeviceRecord, 'firmwareVersion' | 'deployedSyncId'>,
  settled: { firmwareVersion?: string; syncId?: string },
  address: ConfirmationAddress,
): NewConfirmation[] {
  const moment = {
    appliedAt: observation.observedAt,
    observedAt: observation.observedAt,
    reason: 'observation' as const,
  };
  const found: NewConfirmation[] = [];
  if (observation.firmwareVersion !== (settled.firmwareVersion ?? record.firmwareVersion)) {
    found.push(
      firmwareConfirmation(
        address,
        observation.serialNumber,
        { success: true, version: observation.firmwareVersion },
        moment,
      ),
    );
  }
  const recordedSyncId = settled.syncId ?? record.deployedSyncId;
  if (observation.configSyncId !== null && observation.configSyncId.toLowerCase() !== recordedSyncId?.toLowerCase()) {
    found.push(
      configurationConfirmation(
        address,
        observation.serialNumber,
        { success: true, syncId: observation.configSyncId.toLowerCase() },
        moment,
      ),
    );
  }
  return found;
}

async function readRecord(
  account: ReconcileAccount,
  serialNumber: string,
  signal: AbortSignal | undefined,
): Promise<DeviceRecord | null> {
  const page = await account.client.devices.list(
    { serial: serialNumber, limit: 1 },
    { retry: false, ...(signal ? { signal } : {}) },
  );
  return page.items.find((d) => d.serialNumber === serialNumber) ?? null;
}

function sameAccount(intent: JobIntent, address: ConfirmationAddress): boolean {
  return intent.serviceUrl === address.serviceUrl && intent.orgId === address.orgId;
}

/** What a confirmation says, whenever and by whomever it was seen: the same state is said once. */
function stateKey(c: NewConfirmation | OutboxEntry): string {
  const state =
    c.kind === 'firmware'
      ? `${String(c.payload.firmwareFileSuccessfullyDeployed)}:${c.payload.firmwareVersion ?? ''}`
      : `${String(c.payload.configurationFileSuccessfullyDeployed)}:${c.payload.syncId.toLowerCase()}`;
  return `${c.serviceUrl}\u0000${c.orgId}\u0000${c.serialNumber}\u0000${c.kind}\u0000${state}`;
}

/**
 * An outbox entry (waiting, or refused and kept for a person) already says this state: saying it
 * again would only queue a duplicate, or pile up refusals of a syncId the service did not issue.
 */
function alreadySaid(entries: readonly OutboxEntry[], confirmation: NewConfirmation): boolean {
  const key = stateKey(confirmation);
  return entries.some((e) => stateKey(e) === key);
}

/** An entry still in the outbox after a pass waits; its payload is written once, so it is found by content. */
function entryKey(c: NewConfirmation | OutboxEntry): string {
  return `${c.serviceUrl}\u0000${c.orgId}\u0000${c.serialNumber}\u0000${c.kind}\u0000${JSON.stringify(c.payload)}`;
}
