import { join } from 'node:path';
import { CoreError, type StationChannel, type StationView } from '../../../contract/index';
import type { DeviceSource } from '../../features/workbench/workbench';
import type { JobsEngine } from '../../engine/jobs/jobs-engine';
import type { CoreLog } from '../../engine/core-log';
import type { AccountSession } from '../account-session';
import {
  commissioningReportWriter,
  loadShiftParameters,
  loadStationRoster,
  serviceSyncCheck,
  shiftConfirmationRecord,
  shiftParametersView,
  shiftVerificationRecorder,
  Station,
  StationSetupError,
} from '../../features/station';
import { shortChecksum } from '../../../domain/running-parameters';
import { shiftConfirmationRefusal } from '../../../domain/shift-parameters';
import { sendLedger } from '../../engine/ledger';
import { LOCAL_WORKSPACE_SERVICE } from '../local-workspace';
import type { HandlerGroup } from './types';

export interface StationHost {
  session: AccountSession;
  /** The live device list the workbench shows: the station takes its arrivals and departures. */
  devices: DeviceSource;
  /** The jobs engine the workbench uses too: a station job shows on the workbench while it runs (the station forgets it once its lane has recorded it). */
  jobs: JobsEngine;
  /** The shift reports go under `<dataDir>/station/`. */
  dataDir: string;
  log: CoreLog;
}

/** What the screen shows before the first start. */
function idleView(): StationView {
  return {
    running: false,
    configurationName: null,
    configurationSize: 0,
    lanes: 0,
    firmware: 'latest',
    startedAt: null,
    counts: { done: 0, failed: 0, waiting: 0, working: 0, inSync: 0, refused: 0, duplicate: 0 },
    yieldPercent: null,
    tiles: [],
    notes: [],
    report: null,
    shift: null,
  };
}

/**
 * The Station screen's channels: one station at a time in the core, started for a configuration
 * by name, stopped with its shift report. Its events go to the log; the screen reads the view.
 */
export function stationHandlers(host: StationHost): {
  handlers: HandlerGroup<StationChannel>;
  /** Whether a device's reading may be confirmed to the service: not a copy of a serial the station flags (Station.speaksForItsSerial). */
  speaksForItsSerial(device: { serialNumber: string; link: string }): boolean;
  close(): Promise<void>;
} {
  let station: Station | null = null;
  let unsubscribe: (() => void) | null = null;

  /** The configuration's devices and the parameters their files intend, read afresh for each look and each start. */
  const shiftOf = async (account: ReturnType<AccountSession['require']>, configurationName: string) => {
    try {
      const roster = await loadStationRoster(account.client, configurationName);
      return { roster, parameters: await loadShiftParameters(roster, host.jobs.configFiles(), account.client) };
    } catch (error) {
      if (error instanceof StationSetupError) throw new CoreError('NOT_FOUND', error.message);
      throw error;
    }
  };

  const stop = async (): Promise<StationView> => {
    if (!station) return idleView();
    const report = await station.stop();
    unsubscribe?.();
    unsubscribe = null;
    host.log.info(
      'station',
      `Station stopped; shift report: ${report.path}${report.commissioning?.path ? `; commissioning report: ${report.commissioning.path}` : ''}`,
    );
    return station.view();
  };

  return {
    handlers: {
      'station.view': async () => station?.view() ?? idleView(),
      'station.parameters': async (input) => {
        const account = host.session.require('files.download');
        return shiftParametersView((await shiftOf(account, input.configurationName)).parameters);
      },
      'station.start': async (input) => {
        const account = host.session.require('files.download');
        if (station?.view().running)
          throw new CoreError(
            'CONFLICT',
            `The station already runs for "${station.view().configurationName}": stop it first.`,
          );
        // Computed again now: a configuration changed since the operator read its table is refused.
        const { roster, parameters } = await shiftOf(account, input.configurationName);
        const refusal = shiftConfirmationRefusal(parameters, input.checksum);
        if (refusal !== null) throw new CoreError('VALIDATION', refusal);
        const confirmedAt = new Date();
        const recordContext = {
          workstation: await host.jobs.workstation(),
          operator: input.operator,
          ...(account.keyName ? { actor: account.keyName } : {}),
          serviceUrl: account.kind === 'local' ? LOCAL_WORKSPACE_SERVICE : account.serviceUrl,
          orgId: account.orgId,
        };
        const ledgerAccount = { client: account.client, serviceUrl: recordContext.serviceUrl, orgId: account.orgId };
        await host.jobs.ledger.append(await shiftConfirmationRecord(parameters, recordContext, confirmedAt));
        void sendLedger(host.jobs.ledger, ledgerAccount).catch(() => undefined);
        const reportContext = async () => ({
          client: account.client,
          ledger: host.jobs.ledger,
          cache: host.jobs.cache,
          workstation: await host.jobs.workstation(),
          service:
            account.kind === 'local' ? 'the local workspace' : `organization ${account.orgId} at ${account.serviceUrl}`,
          orgId: account.orgId,
        });
        const next = new Station({
          roster,
          devices: host.devices,
          jobs: host.jobs,
          checkSync: serviceSyncCheck(account.client, input.firmware),
          lanes: input.lanes,
          firmware: input.firmware,
          reportDir: join(host.dataDir, 'station'),
          // At the end of the shift, beside the shift report, as `provisioner station` writes it.
          commissioningReport: commissioningReportWriter(
            reportContext,
            roster.configurationId,
            roster.configurationName,
            input.language ?? 'en',
          ),
          onWarning: (message) => host.log.warn('station', message),
          parameters: {
            shift: parameters,
            confirmation: {
              operator: input.operator,
              checksumShort: shortChecksum(parameters.checksum),
              confirmedAt: confirmedAt.toISOString(),
            },
            record: shiftVerificationRecorder(
              host.jobs.ledger,
              parameters,
              recordContext,
              confirmedAt,
              () => void sendLedger(host.jobs.ledger, ledgerAccount).catch(() => undefined),
            ),
          },
        });
        unsubscribe = next.on((event) => {
          if (event.event === 'failed')
            host.log.error('station', `${event.serialNumber}: ${event.reason}. ${event.action}`);
          else if (event.event === 'refused' || event.event === 'duplicate') host.log.warn('station', event.reason);
          else if (event.event === 'done') host.log.info('station', `${event.serialNumber}: done (${event.text}).`);
        });
        station = next;
        next.start();
        host.log.info(
          'station',
          `Station started for "${roster.configurationName}" with ${input.lanes} lane(s); parameters checksum ${shortChecksum(parameters.checksum)} confirmed by ${input.operator}.`,
        );
        return next.view();
      },
      'station.stop': () => stop(),
    },
    speaksForItsSerial: (device) => station?.speaksForItsSerial(device) ?? true,
    close: async () => {
      if (station?.view().running) await stop();
    },
  };
}
