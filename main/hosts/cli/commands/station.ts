import { join } from 'node:path';
import type { StationEvent, StationFirmwarePolicy } from '../../../../contract/station';
import { BleCentral, systemBleCentral } from '../../../devices';
import { LiveDeviceList, portGlobsFromEnv } from '../../../devices/discovery';
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
  type StationParameterCheck,
  type StationRoster,
} from '../../../features/station';
import type { JobsEngine } from '../../../engine/jobs';
import { sendLedger } from '../../../engine/ledger';
import { shortChecksum } from '../../../../domain/running-parameters';
import { shiftConfirmationRefusal, type ShiftParameters } from '../../../../domain/shift-parameters';
import type { StationShiftParametersView } from '../../../../contract/station';
import { cliLanguage, cliTranslator, t } from '../cli-language';
import type { CliContext } from '../context';
import { CliError, EXIT } from '../errors';
import { localeFormat, SOURCE_LANGUAGE } from '../../../../domain/i18n/index.js';
import { jobFailureText } from '../../../../domain/job-text';
import { stationAdviceText } from '../../../../domain/station-advice';
import { keptApartText } from '../../../../domain/station-kept-apart';
import { stationNoteText } from '../../../../domain/station-note';
import { technicianName } from '../parameter-table';
import { ask, interactive } from './function-test';
import { reportContextOf } from './report';

export interface StationCommandOptions {
  configuration: string;
  firmware: StationFirmwarePolicy;
  lanes: number;
  report?: string;
  /** The configuration's parameter checksum, short, as the operator read it (asked at a terminal otherwise). */
  confirmChecksum?: string;
  /** The operator's own name (default PROVISIONER_TECHNICIAN; asked at a terminal). */
  operator?: string;
}

/**
 * `provisioner station --configuration NAME`: provisions every device of the configuration that
 * is plugged in (USB hot-plug, BLE in range, IP devices found by multicast), `--lanes` at once,
 * until Ctrl-C; then writes the shift report and says where. With --json, one event a line.
 */
export async function station(
  ctx: CliContext,
  options: StationCommandOptions,
  interrupt?: AbortSignal,
): Promise<number> {
  const account = await ctx.account();
  let roster;
  try {
    roster = await loadStationRoster(account.client, options.configuration);
  } catch (error) {
    if (error instanceof StationSetupError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  const jobs = await ctx.provisioning();
  const parameters = await confirmShift(ctx, roster, jobs, options);
  const bleCentral = bleCentralOf(ctx);
  // The list asks the station which links its jobs use; the station is made from the list.
  const holder: { station?: Station } = {};
  const list = new LiveDeviceList({
    serial: { portGlobs: portGlobsFromEnv(ctx.io.env) },
    ...(bleCentral ? { ble: { central: bleCentral } } : {}),
    ...(ctx.deps.linkDeps ? { linkDeps: ctx.deps.linkDeps } : {}),
    // Plugging is noticed at once through the port directories' watch; the poll is the fallback.
    pollIntervalMs: 500,
    ipPollIntervalMs: 2000,
    isBusy: (link) => holder.station?.isBusy(link) ?? false,
    onWarning: (message) => ctx.out.note(message),
  });
  const shift = new Station({
    roster,
    devices: list,
    jobs,
    checkSync: serviceSyncCheck(account.client, options.firmware),
    lanes: options.lanes,
    firmware: options.firmware,
    reportDir: join(ctx.dirs.data, 'station'),
    ...(options.report ? { reportPath: options.report } : {}),
    onWarning: (message) => ctx.out.note(message),
    parameters,
  });
  holder.station = shift;
  shift.on((event) => {
    if (ctx.out.json) ctx.out.jsonLine(event);
    else {
      const line = eventLine(event);
      if (line) ctx.out.line(line);
    }
  });
  const stopped = new Promise<void>((resolve) => {
    if (!interrupt) return;
    if (interrupt.aborted) resolve();
    else interrupt.addEventListener('abort', () => resolve(), { once: true });
  });
  await list.start();
  shift.start();
  if (!ctx.out.json) ctx.out.line(t('cli:station.plugIn', { name: roster.configurationName }));
  await stopped;
  await list.stop();
  const report = await shift.stop();
  const { counts, yieldPercent } = shift.view();
  // Beside the shift report, as the Station screen writes it; the shift's work stands without it.
  const commissioning = await commissioningReportWriter(
    () => reportContextOf(ctx),
    roster.configurationId,
    roster.configurationName,
    cliLanguage(),
  )(report.path);
  if (commissioning.error !== null) ctx.out.note(commissioning.error);
  else if (ctx.out.json) ctx.out.jsonLine({ event: 'commissioning-report', path: commissioning.path });
  if (!ctx.out.json) {
    const shiftYield = yieldPercent === null ? '—' : localeFormat(cliTranslator()).percent(yieldPercent / 100);
    const { done, failed, inSync, refused, duplicate } = counts;
    ctx.out.line(
      t('cli:station.summary', {
        done,
        failed,
        unfinished: counts.waiting + counts.working,
        inSync,
        refused,
        duplicate,
        yield: shiftYield,
      }),
    );
    ctx.out.line(t('cli:station.shiftReport', { path: report.path }));
    if (commissioning.path !== null) ctx.out.line(t('cli:station.commissioningReport', { path: commissioning.path }));
  }
  return counts.failed === 0 && counts.working === 0 ? EXIT.ok : EXIT.failed;
}

/**
 * The start of the shift (issue 26): every device's intended parameters and the configuration's
 * parameter checksum are shown; the operator types its short form (or gives it with
 * --confirm-checksum) and names themself. Only the right checksum is taken. The confirmation goes
 * to the ledger ('station-shift'), and each device's verification of the shift is recorded as
 * confirmed by it.
 */
async function confirmShift(
  ctx: CliContext,
  roster: StationRoster,
  jobs: JobsEngine,
  options: StationCommandOptions,
): Promise<StationParameterCheck> {
  const account = await ctx.account();
  let shift: ShiftParameters;
  try {
    shift = await loadShiftParameters(roster, jobs.configFiles(), account.client);
  } catch (error) {
    if (error instanceof StationSetupError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  const view = shiftParametersView(shift);
  if (ctx.out.json) ctx.out.jsonLine({ event: 'shift-parameters', ...view });
  else for (const line of shiftParameterLines(view)) ctx.out.line(line);
  let refusal: string | null;
  if (options.confirmChecksum !== undefined) refusal = shiftConfirmationRefusal(shift, options.confirmChecksum);
  else if (!interactive(ctx)) refusal = t('cli:station.noOneConfirmed');
  else {
    refusal = t('cli:station.notConfirmed');
    for (let i = 0; i < 3 && refusal !== null; i += 1) {
      refusal = shiftConfirmationRefusal(shift, await ask(t('cli:station.confirmPrompt')));
      if (refusal !== null) ctx.out.error(refusal);
    }
  }
  if (refusal !== null) throw new CliError(t('cli:station.didNotStart', { reason: refusal }), EXIT.usage);
  const operator = await technicianName(ctx, options.operator);
  if (operator === null) throw new CliError(t('cli:station.noOperator'), EXIT.usage);
  const keyName = account.local ? null : ((await ctx.login())?.keyName ?? null);
  const context = {
    workstation: await jobs.workstation(),
    operator,
    ...(keyName ? { actor: keyName } : {}),
    serviceUrl: account.serviceUrl,
    orgId: account.orgId,
  };
  const confirmedAt = new Date();
  await jobs.ledger.append(await shiftConfirmationRecord(shift, context, confirmedAt));
  const send = () => void sendLedger(jobs.ledger, account).catch(() => undefined);
  send();
  const checksumShort = shortChecksum(shift.checksum);
  if (!ctx.out.json) ctx.out.line(t('cli:station.confirmed', { operator, checksum: checksumShort }));
  return {
    shift,
    confirmation: { operator, checksumShort, confirmedAt: confirmedAt.toISOString() },
    record: shiftVerificationRecorder(jobs.ledger, shift, context, confirmedAt, send),
  };
}

/** The shift's parameters as the terminal shows them: each device's intended values, then the checksum to type. */
export function shiftParameterLines(view: StationShiftParametersView): string[] {
  const lines = [t('cli:station.parameters.title', { name: view.configurationName })];
  for (const device of view.devices) {
    lines.push(
      `  ${t('cli:station.parameters.device', { serial: device.serialNumber, type: device.deviceType, checksum: device.checksumShort })}`,
    );
    const width = Math.max(...device.rows.map((row) => row.label.length), 9);
    let group: string | undefined;
    for (const row of device.rows) {
      if (row.group !== group) {
        group = row.group;
        lines.push(`    ${group}`);
      }
      lines.push(`      ${row.label.padEnd(width)}  ${row.intended}`);
    }
  }
  lines.push(t('cli:station.parameters.checksum', { checksum: view.checksumShort }));
  return lines;
}

/** One line for a person watching the terminal; progress is left to the tiles and --json. */
export function eventLine(event: StationEvent): string | null {
  switch (event.event) {
    case 'station-started':
      return t('cli:station.event.started', {
        name: event.configurationName,
        size: event.configurationSize,
        lanes: event.lanes,
        firmware: event.firmware,
        confirmed: event.shift ? 'yes' : 'no',
        checksum: event.shift?.checksumShort ?? '',
        operator: event.shift?.operator ?? '',
      });
    case 'waiting':
      return t('cli:station.event.waiting', { serial: event.serialNumber, link: event.link });
    case 'lane-started':
      return t('cli:station.event.laneStarted', { serial: event.serialNumber, resumed: event.resumed ? 'yes' : 'no' });
    case 'step':
      return `${event.serialNumber}: ${event.text}`;
    case 'progress':
      return null;
    case 'done':
      return t('cli:station.event.done', { serial: event.serialNumber, text: event.text });
    case 'failed':
      return t('cli:station.event.failed', {
        serial: event.serialNumber,
        reason: failedReason(event),
        action: failedAdvice(event),
      });
    case 'refused':
      return t('cli:station.event.refused', { serial: event.serialNumber, reason: noteReason(event) });
    case 'duplicate':
      return t('cli:station.event.duplicate', { serial: event.serialNumber, reason: noteReason(event) });
    case 'in-sync':
      return `${event.serialNumber}: ${event.text}`;
    case 'unplugged':
      return t('cli:station.event.unplugged', { serial: event.serialNumber });
    case 'station-stopped':
      return t('cli:station.event.stopped');
  }
}

/**
 * The BLE central the station's discovery scans with: the one tests pass, the simulator's served
 * from another process (PROVISIONER_SIMULATED_BLE), or the computer's adapter. Chosen as the
 * context chooses the connector's.
 */
function bleCentralOf(ctx: CliContext): (() => Promise<BleCentral>) | undefined {
  if (ctx.deps.bleCentral) return ctx.deps.bleCentral;
  const endpoint = ctx.io.env.PROVISIONER_SIMULATED_BLE;
  if (endpoint) {
    const central = import('../../../../simulator/ble/bridge-client').then(({ connectSimulatedBleBindings }) =>
      BleCentral.create(connectSimulatedBleBindings(endpoint)),
    );
    return () => central;
  }
  return ctx.io.env.PROVISIONER_NO_BLE ? undefined : systemBleCentral;
}

/**
 * The station core's English sentence, or, in another language, what `say` makes of the code the
 * core sent beside it (the sentence again when it sent none, or `say` has no words for it).
 */
function inRunLanguage<Code>(
  english: string,
  code: Code | null | undefined,
  say: (code: Code, words: ReturnType<typeof cliTranslator>) => string | null,
): string {
  const translator = cliTranslator();
  if (translator.language === SOURCE_LANGUAGE || code === null || code === undefined) return english;
  return say(code, translator) ?? english;
}

/** Why a device was refused or flagged. */
function noteReason(event: Extract<StationEvent, { event: 'refused' | 'duplicate' }>): string {
  return inRunLanguage(event.reason, event.why, stationNoteText);
}

/** What to do about a failed device. */
function failedAdvice(event: Extract<StationEvent, { event: 'failed' }>): string {
  return inRunLanguage(event.action, event.advice, stationAdviceText);
}

/**
 * Why a lane failed: English keeps the station core's own sentence (the steps it did, the
 * device's words); another language says it from the catalogs when the core sent it as codes and
 * values: a lane kept apart by the rows that differ, else the job's reason.
 */
function failedReason(event: Extract<StationEvent, { event: 'failed' }>): string {
  if (event.keptApart) return inRunLanguage(event.reason, event.keptApart, keptApartText);
  return inRunLanguage(event.reason, event.failureReason, (reason, words) =>
    jobFailureText(reason, event.errorCode, words),
  );
}
