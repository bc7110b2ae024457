import { join } from 'node:path';
import {
  CoreError,
  type StationChannel,
  type StationEvent,
  type StationReportView,
  type StationView,
} from '../../../contract/index';
import type { ServiceClient } from '../../cloud';
import type { JobsEngine } from '../../engine/jobs/jobs-engine';
import type { CoreLog } from '../../engine/core-log';
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
  type CommissioningReportWriter,
  type StationDevices,
} from '../../features/station';
import { shortChecksum } from '../../../domain/running-parameters';
import { shiftConfirmationRefusal } from '../../../domain/shift-parameters';
import { sendLedger } from '../../engine/ledger';
import type { HandlerGroup } from './types';

/** The account a station works for, as its host settled it (the app's session, the CLI's login); AccountabilityAccount's shape. */
export interface StationAccount {
  client: ServiceClient;
  /** The ledger's name for the service: its URL, or the local workspace's fixed name (LOCAL_WORKSPACE_SERVICE). */
  serviceUrl: string;
  orgId: string;
  /** Who is signed in (the API key's name): the shift confirmation's actor, when the host knows it. */
  actor?: string;
  /** For people, in the commissioning report: "organization demo at https://…", "the local workspace". */
  label: string;
}

/** The devices a station takes, opened at its start and closed at its stop. */
export interface StationDeviceList {
  devices: StationDevices;
  close(): Promise<void>;
}

export interface StationHost {
  /** The account, admitted to put files on devices (the app's role gate); asked at each look and each start. */
  account: () => Promise<StationAccount>;
  /**
   * The devices' arrivals and departures: the app's live list the workbench shows (running
   * already; closed with the app), or a list of the station's own in a command-line run (started
   * here, stopped at the stop). `isBusy` says which links the station's jobs use.
   */
  openDevices: (isBusy: (link: string) => boolean) => Promise<StationDeviceList>;
  /** The jobs engine the workbench uses too: a station job shows on the workbench while it runs (the station forgets it once its lane has recorded it). */
  jobs: JobsEngine;
  /** The shift reports go under `<dataDir>/station/`. */
  dataDir: string;
  /** Each event of the shift as it happens (the core's `station.event` stream). */
  emit: (event: StationEvent) => void;
  /** A step of the station's own that failed (the sync check, a ledger write, the device list): said, never thrown. */
  warn: (message: string) => void;
  /** Where the app keeps what the station did; a command-line run prints the events instead. */
  log?: Pick<CoreLog, 'info' | 'warn' | 'error'>;
  /** Whether `station.start` may name the shift report's file: a command-line run's `--report`, never a renderer. */
  reportPathAllowed?: boolean;
  /**
   * The commissioning report is written after the stop rather than by the station before its
   * `station-stopped` event: that event then names none, and only the stop's view holds it, as
   * `provisioner station --json` has always printed it (in its own line after the stop).
   */
  commissioningAfterStop?: boolean;
}

/** How long the table a core showed stands for the start that follows it (see shownShift). */
export const SHOWN_SHIFT_MAX_AGE_MS = 10 * 60_000;

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
 * The Station's channels: one station at a time in the core, started for a configuration by
 * name, stopped with its shift report. Its events go to `emit` (and the app's log); the screen
 * reads the view.
 */
export function stationHandlers(host: StationHost): {
  handlers: HandlerGroup<StationChannel>;
  /** Whether a device's reading may be confirmed to the service: not a copy of a serial the station flags (Station.speaksForItsSerial). */
  speaksForItsSerial(device: { serialNumber: string; link: string }): boolean;
  close(): Promise<void>;
} {
  let station: Station | null = null;
  let devices: StationDeviceList | null = null;
  let unsubscribe: (() => void) | null = null;
  // commissioningAfterStop: the report written after the last stop, for that station's view.
  let commissioningAfterStop: StationReportView['commissioning'] = null;
  let writeCommissioningAfterStop: CommissioningReportWriter | null = null;

  /**
   * The shift whose table this core showed last (`station.parameters`), for the start that follows
   * it: fetching every device's file again would double a start's wait (a Station started again
   * after a crash too: 97 s more at 300 devices in the soak). A file the service changes after the
   * table was read is still caught, device by device: the station keeps apart a device whose job
   * applied another file than the shift's (Station.departureFromShift). Taken once, and only
   * while fresh, so that a table left open does not start a shift of files long replaced.
   */
  let shownShift: { key: string; at: number; shift: Awaited<ReturnType<typeof shiftOf>> } | null = null;
  const shownKey = (account: StationAccount, configurationName: string) =>
    JSON.stringify([account.serviceUrl, account.orgId, configurationName]);

  /** The configuration's devices and the parameters their files intend, read afresh. */
  const shiftOf = async (account: StationAccount, configurationName: string) => {
    try {
      const roster = await loadStationRoster(account.client, configurationName);
      return { roster, parameters: await loadShiftParameters(roster, host.jobs.configFiles(), account.client) };
    } catch (error) {
      if (error instanceof StationSetupError) throw new CoreError('NOT_FOUND', error.message);
      throw error;
    }
  };

  const viewOf = (current: Station): StationView => {
    const view = current.view();
    if (!host.commissioningAfterStop || view.report === null) return view;
    return { ...view, report: { ...view.report, commissioning: commissioningAfterStop } };
  };

  const stop = async (): Promise<StationView> => {
    if (!station) return idleView();
    const current = station;
    // No arrivals while the lanes end: the list goes first (the app's stays, it is the workbench's).
    const closing = devices;
    devices = null;
    await closing?.close();
    const report = await current.stop();
    unsubscribe?.();
    unsubscribe = null;
    const write = writeCommissioningAfterStop;
    writeCommissioningAfterStop = null;
    if (write) commissioningAfterStop = await write(report.path);
    const commissioning = write ? commissioningAfterStop : report.commissioning;
    host.log?.info(
      'station',
      `Station stopped; shift report: ${report.path}${commissioning?.path ? `; commissioning report: ${commissioning.path}` : ''}`,
    );
    return viewOf(current);
  };

  return {
    handlers: {
      'station.view': async () => (station ? viewOf(station) : idleView()),
      'station.parameters': async (input) => {
        const account = await host.account();
        const shift = await shiftOf(account, input.configurationName);
        shownShift = { key: shownKey(account, input.configurationName), at: Date.now(), shift };
        return shiftParametersView(shift.parameters);
      },
      'station.start': async (input) => {
        const account = await host.account();
        if (station?.view().running)
          throw new CoreError(
            'CONFLICT',
            `The station already runs for "${station.view().configurationName}": stop it first.`,
          );
        if (input.reportPath !== undefined && !host.reportPathAllowed)
          throw new CoreError(
            'VALIDATION',
            'The shift report goes under the data directory here; only a command-line run names its file (--report).',
          );
        const shown = shownShift;
        shownShift = null;
        const fresh =
          shown !== null &&
          shown.key === shownKey(account, input.configurationName) &&
          Date.now() - shown.at <= SHOWN_SHIFT_MAX_AGE_MS;
        // Without a table shown a moment ago, computed now: the checksum typed must be the files' of now.
        const { roster, parameters } = fresh ? shown.shift : await shiftOf(account, input.configurationName);
        const refusal = shiftConfirmationRefusal(parameters, input.checksum);
        if (refusal !== null) throw new CoreError('VALIDATION', refusal);
        const confirmedAt = new Date();
        const recordContext = {
          workstation: await host.jobs.workstation(),
          operator: input.operator,
          ...(account.actor ? { actor: account.actor } : {}),
          serviceUrl: account.serviceUrl,
          orgId: account.orgId,
        };
        const ledgerAccount = { client: account.client, serviceUrl: account.serviceUrl, orgId: account.orgId };
        const sendTheLedger = () => void sendLedger(host.jobs.ledger, ledgerAccount).catch(() => undefined);
        await host.jobs.ledger.append(await shiftConfirmationRecord(parameters, recordContext, confirmedAt));
        sendTheLedger();
        const reportContext = async () => ({
          client: account.client,
          ledger: host.jobs.ledger,
          cache: host.jobs.cache,
          workstation: await host.jobs.workstation(),
          service: account.label,
          orgId: account.orgId,
        });
        // At the end of the shift, beside the shift report.
        const commissioningReport = commissioningReportWriter(
          reportContext,
          roster.configurationId,
          roster.configurationName,
          input.language ?? 'en',
        );
        // The list asks the station which links its jobs use; the station is made from the list.
        const holder: { station?: Station } = {};
        const opened = await host.openDevices((link) => holder.station?.isBusy(link) ?? false);
        const next = new Station({
          roster,
          devices: opened.devices,
          jobs: host.jobs,
          checkSync: serviceSyncCheck(account.client, input.firmware),
          lanes: input.lanes,
          firmware: input.firmware,
          reportDir: join(host.dataDir, 'station'),
          ...(input.reportPath !== undefined ? { reportPath: input.reportPath } : {}),
          ...(host.commissioningAfterStop ? {} : { commissioningReport }),
          onWarning: (message) => host.warn(message),
          parameters: {
            shift: parameters,
            confirmation: {
              operator: input.operator,
              checksumShort: shortChecksum(parameters.checksum),
              confirmedAt: confirmedAt.toISOString(),
            },
            record: shiftVerificationRecorder(host.jobs.ledger, parameters, recordContext, confirmedAt, sendTheLedger),
          },
        });
        holder.station = next;
        unsubscribe = next.on((event) => {
          host.emit(event);
          if (event.event === 'failed')
            host.log?.error('station', `${event.serialNumber}: ${event.reason}. ${event.action}`);
          else if (event.event === 'refused' || event.event === 'duplicate') host.log?.warn('station', event.reason);
          else if (event.event === 'done') host.log?.info('station', `${event.serialNumber}: done (${event.text}).`);
        });
        station = next;
        devices = opened;
        commissioningAfterStop = null;
        writeCommissioningAfterStop = host.commissioningAfterStop ? commissioningReport : null;
        next.start();
        host.log?.info(
          'station',
          `Station started for "${roster.configurationName}" with ${input.lanes} lane(s); parameters checksum ${shortChecksum(parameters.checksum)} confirmed by ${input.operator}.`,
        );
        return viewOf(next);
      },
      'station.stop': () => stop(),
    },
    speaksForItsSerial: (device) => station?.speaksForItsSerial(device) ?? true,
    close: async () => {
      if (station?.view().running) await stop();
    },
  };
}
