import {
  CoreError,
  type AttachedStandingView,
  type DeviceVerdictsView,
  type ParameterReadBackView,
  type ReadbackChannel,
} from '../../../contract/index';
import type { ServiceClient } from '../../cloud';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { commissioningViewOf } from '../../../domain/ledger-commissioning';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import { confirmationRefusal } from '../../../domain/running-parameters';
import { frcTypeFromRecord, modelOf } from '../../devices/vendor';
import {
  deviceSync,
  latestFirmwareByType,
  observationOf,
  type AttachedDevice,
  type ConfigFileStore,
  type DeviceConnector,
  type DeviceFinder,
  type DeviceIdentity,
  type DeviceReading,
  type DeviceSync,
  type JobsEngine,
  type ProvisioningAccount,
  type ReconcileOutcome,
} from '../../engine/jobs';
import {
  appendParameterVerifications,
  checkRunningParameters,
  type ParameterConfirmation,
  type VerifiedParameters,
} from '../../engine/jobs/parameter-check';
import { settingsReadBack } from '../../engine/jobs/settings-check';
import { sendLedger } from '../../engine/ledger';
import { verifyRecord } from '../../engine/ledger/verify-record';
import type { HandlerGroup } from './types';

type Identified = AttachedDevice & { identity: DeviceIdentity };
type SettledAccount = ProvisioningAccount & { client: ServiceClient };

export interface ReadbackHandlerDeps {
  finder: DeviceFinder;
  connector: DeviceConnector;
  /** The run's account, settled when a channel first needs the service. */
  settleAccount: () => Promise<SettledAccount>;
  /** The account's kept configuration files (each read back against the file the service makes now). */
  configFiles: (account: ProvisioningAccount) => ConfigFileStore;
  /** The engine: its reconciler, this workstation's ledger and id, and the jobs of this run. */
  engine: () => Pick<JobsEngine, 'reconcile' | 'ledger' | 'workstation' | 'jobs'>;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Reading devices back for a host that finds them itself (contract/readback.ts): the CLI's
 * `device list`, `device verify` and `device verify --parameters`. The devices are those the last
 * `readback.attached` read; what is judged, recorded and confirmed is what the core read of them.
 */
export function readbackHandlers(deps: ReadbackHandlerDeps): HandlerGroup<ReadbackChannel> {
  /** The devices the last listing identified, by link. */
  const listed = new Map<string, Identified>();
  const identifiedAt = (link: string): Identified => {
    const device = listed.get(link);
    if (!device)
      throw new CoreError(
        'VALIDATION',
        `${link} is not a device the last readback.attached identified: list the attached devices first.`,
      );
    return device;
  };

  /**
   * Each verdict into this workstation's ledger, then the ledger to the organization's chain when
   * the service answers (`ledger verify` sends what it could not). Why it could not be written.
   */
  const recordVerdicts = async (
    account: SettledAccount,
    verdicts: readonly { device: Identified; sync: DeviceSync }[],
  ): Promise<string | null> => {
    if (verdicts.length === 0) return null;
    const { ledger } = deps.engine();
    try {
      const workstation = await deps.engine().workstation();
      for (const { device, sync } of verdicts) {
        await ledger.append(
          verifyRecord({
            serialNumber: device.identity.serialNumber,
            workstation,
            serviceUrl: account.serviceUrl,
            orgId: account.orgId,
            link: device.link,
            sync,
            at: new Date(),
          }),
        );
      }
    } catch (error) {
      return messageOf(error);
    }
    await sendLedger(ledger, account).catch(() => undefined);
    return null;
  };

  /** Verifications into the ledger with the person, the key, the workstation and the tool; then sent. */
  const recordParameters = async (
    verified: readonly VerifiedParameters[],
    person: string | null,
    actor: string | null,
    confirmation: ParameterConfirmation | null,
  ): Promise<string | null> => {
    const account = await deps.settleAccount();
    const { ledger } = deps.engine();
    try {
      await appendParameterVerifications(ledger, verified, {
        workstation: await deps.engine().workstation(),
        person,
        ...(actor ? { actor } : {}),
        serviceUrl: account.serviceUrl,
        orgId: account.orgId,
        confirmation,
      });
    } catch (error) {
      return messageOf(error);
    }
    await sendLedger(ledger, account).catch(() => undefined);
    return null;
  };

  /**
   * What a device tells of itself. A device that names no configuration file it holds (the
   * vendor's EPC) while the service expects one has its running settings read back against the
   * file the service serves it now, value by value: equal settings are not a drift
   * (device-sync.ts). When they cannot be read, that is said and the verdict stands on the identity.
   */
  const readingOf = async (
    account: SettledAccount,
    device: Identified,
    record: DeviceRecord | null | undefined,
    failed: (reason: string) => void,
  ): Promise<DeviceReading> => {
    const { identity } = device;
    if (device.protocol !== 'vendor' || identity.configSyncId !== null || !record?.configurationId) return identity;
    const serialNumber = identity.serialNumber;
    try {
      const file = await deps.configFiles(account).resolve(account.client.devices, serialNumber);
      const connection = await deps.connector.connect({ kind: 'link', spec: device.link, serialNumber });
      try {
        const readBack = await settingsReadBack(connection, file);
        return readBack ? { ...identity, settingsReadBack: readBack } : identity;
      } finally {
        await connection.close().catch(() => undefined);
      }
    } catch (error) {
      failed(messageOf(error));
      return identity;
    }
  };

  /** One device's running parameters against the file the service makes for it now (docs/device-protocol.md 3.11). */
  const parametersOf = async (device: Identified): Promise<VerifiedParameters> => {
    const serialNumber = device.identity.serialNumber;
    const account = await deps.settleAccount();
    const resolved = await deps.configFiles(account).resolve(account.client.devices, serialNumber);
    const decoded = decodeConfigFile(resolved.bytes);
    if (decoded.serialNumber !== serialNumber)
      throw new Error(`the service sent the file of ${decoded.serialNumber} for ${serialNumber}`);
    const connection = await deps.connector.connect({ kind: 'link', spec: device.link, serialNumber });
    try {
      return {
        serialNumber,
        link: connection.link,
        syncId: decoded.syncId,
        comparison: await checkRunningParameters(connection, decoded),
      };
    } finally {
      await connection.close().catch(() => undefined);
    }
  };

  return {
    'readback.attached': async (input) => {
      const devices = await deps.finder.list({ extraLinks: input.links });
      listed.clear();
      // A copy: what the core learns of a device later (a vendor FRC's type) is not written into the host's answer.
      for (const device of devices) if (device.identity) listed.set(device.link, { ...device } as Identified);
      return devices;
    },

    /**
     * Confirms what the devices report, then judges each against the service. Without a service to
     * ask (`observe` false: no account could be settled) each reads "unknown": listing must work on
     * a plant floor without a network.
     */
    'readback.standing': async (input) => {
      const identified = input.links.map(identifiedAt);
      const observedAt = new Date();
      let outcomes: ReconcileOutcome[] = [];
      let latest = new Map<string, string | null | undefined>();
      let error: string | null = null;
      if (input.observe) {
        try {
          outcomes = await deps.engine().reconcile(identified.map((d) => observationOf(d.identity, observedAt)));
          // A vendor FRC cannot tell an SRC Pro from an NSC: the service's record of its serial number can.
          identified.forEach((d, i) => {
            const recorded =
              d.protocol === 'vendor'
                ? frcTypeFromRecord(d.identity.deviceType, outcomes[i]?.record?.deviceType)
                : undefined;
            if (recorded !== undefined) d.identity = { ...d.identity, deviceType: recorded, model: modelOf(recorded) };
          });
          latest = await latestFirmwareByType(
            (await deps.settleAccount()).client,
            identified.map((d) => d.identity.deviceType),
          );
        } catch (err) {
          error = messageOf(err);
        }
      }
      const standings = identified.map((d, i): AttachedStandingView => {
        const outcome = outcomes[i];
        // The vendor's EPC names no file it holds: its configuration is not judged from a syncId here.
        const namesNoFile = d.protocol === 'vendor' && d.identity.deviceType === 'EPC';
        const sync = deviceSync({ ...d.identity, namesNoFile }, outcome?.record, latest.get(d.identity.deviceType));
        // What this contact confirmed is what the service now holds as last observed.
        const confirmed = outcome !== undefined && outcome.confirmations.length > 0;
        return {
          link: d.link,
          identity: d.identity,
          sync: confirmed ? { ...sync, lastObservedAt: observedAt.toISOString() } : sync,
          confirmation: outcome?.confirmation ?? 'none',
          interrupted: (outcome?.interrupted ?? []).map(({ intent, success }) => ({
            kind: intent.kind,
            jobId: intent.jobId,
            success,
          })),
        };
      });
      return { standings, error };
    },

    'readback.verify': async (input): Promise<DeviceVerdictsView> => {
      const wanted = input.links.map(identifiedAt);
      const account = await deps.settleAccount();
      const { client } = account;
      const records = new Map<string, DeviceRecord | null | undefined>();
      await Promise.all(
        wanted.map(async (d) => {
          const serial = d.identity.serialNumber;
          try {
            const page = await client.devices.list({ serial, limit: 1 }, { retry: false });
            records.set(serial, page.items.find((r) => r.serialNumber === serial) ?? null);
          } catch {
            records.set(serial, undefined);
          }
        }),
      );
      const latest = await latestFirmwareByType(
        client,
        wanted.map((d) => d.identity.deviceType),
      );
      const readBackFailures: DeviceVerdictsView['readBackFailures'] = [];
      const readings = await Promise.all(
        wanted.map((d) =>
          readingOf(account, d, records.get(d.identity.serialNumber), (reason) =>
            readBackFailures.push({ serialNumber: d.identity.serialNumber, reason }),
          ),
        ),
      );
      const verdicts = wanted.map((device, i) => ({
        device,
        sync: deviceSync(
          readings[i]!,
          records.get(device.identity.serialNumber),
          latest.get(device.identity.deviceType),
        ),
      }));
      const ledgerError = await recordVerdicts(account, verdicts);
      return {
        verdicts: verdicts.map(({ device, sync }) => ({
          link: device.link,
          serialNumber: device.identity.serialNumber,
          sync,
        })),
        readBackFailures,
        ledgerError,
      };
    },

    'readback.parameters': async (input) => {
      const results: ParameterReadBackView[] = [];
      for (const device of input.links.map(identifiedAt)) {
        try {
          results.push(await parametersOf(device));
        } catch (error) {
          results.push({ serialNumber: device.identity.serialNumber, error: messageOf(error) });
        }
      }
      const verified = results.filter((r): r is VerifiedParameters => 'comparison' in r);
      // Never confirmed here: a confirmation is a person's, typed after an apply (readback.recordParameters).
      const ledgerError =
        verified.length === 0 ? null : await recordParameters(verified, input.person, input.actor, null);
      return { results, ledgerError };
    },

    'readback.recordParameters': async (input) => {
      // Only a table a job of this run read back: the host names it, the core records its own copy.
      const job = deps
        .engine()
        .jobs()
        .filter(
          (j) =>
            j.serialNumber === input.serialNumber &&
            j.syncId === input.syncId &&
            j.parameters?.tableDigest === input.tableDigest,
        )
        .at(-1);
      const comparison = job?.parameters;
      if (!job || !comparison)
        throw new CoreError(
          'VALIDATION',
          `No job of this run read back this parameter table of ${input.serialNumber}: apply the configuration to verify its parameters.`,
        );
      if (input.confirmation) {
        const refusal = confirmationRefusal(comparison, input.confirmation.checksum);
        if (refusal !== null) throw new CoreError('VALIDATION', refusal);
      }
      const verified: VerifiedParameters = {
        serialNumber: input.serialNumber,
        link: job.link ?? job.linkId,
        syncId: input.syncId,
        comparison,
      };
      const ledgerError = await recordParameters(
        [verified],
        input.person,
        input.actor,
        input.confirmation ? { person: input.confirmation.person, at: new Date() } : null,
      );
      return { ledgerError };
    },

    'readback.commissioning': (input) => commissioningOfDevices(deps.engine().ledger, input.serialNumbers),
  };
}

/** Each device's commissioning by this workstation's ledger (read once, and only when a device is named). */
async function commissioningOfDevices(ledger: Pick<JobsEngine['ledger'], 'entries'>, serialNumbers: readonly string[]) {
  const entries = serialNumbers.length > 0 ? await ledger.entries() : [];
  return serialNumbers.map((serialNumber) => ({
    serialNumber,
    commissioning: commissioningViewOf(entries, serialNumber),
  }));
}

/**
 * The read-back channels as the app serves them: the Workbench reads its devices over its own live
 * list (workbench.*), so the channels that find and read devices are the command line's and are
 * refused here; the commissioning of devices by this workstation's ledger is answered (the Devices
 * screen's word, for a role that may see the device registry).
 */
export function appReadbackHandlers(deps: {
  ledger: Pick<JobsEngine['ledger'], 'entries'>;
  admit: () => void;
}): HandlerGroup<ReadbackChannel> {
  const refused = (channel: ReadbackChannel) => async (): Promise<never> => {
    throw new CoreError(
      'UNKNOWN_CHANNEL',
      `${channel} is served to the command line, which finds devices itself; the app reads its devices through the Workbench (workbench.devices).`,
    );
  };
  return {
    'readback.attached': refused('readback.attached'),
    'readback.standing': refused('readback.standing'),
    'readback.verify': refused('readback.verify'),
    'readback.parameters': refused('readback.parameters'),
    'readback.recordParameters': refused('readback.recordParameters'),
    'readback.commissioning': async (input) => {
      deps.admit();
      return commissioningOfDevices(deps.ledger, input.serialNumbers);
    },
  };
}
