import {
  CoreError,
  STATION_MAX_LANES,
  type StationEvent,
  type StationFirmwarePolicy,
  type StationShiftParametersView,
  type StationView,
} from '../../../../contract/index';
import { shortChecksumRefusal } from '../../../../domain/shift-parameters';
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

/** What the operator confirmed at the start of the shift, for `station.start`. */
interface ShiftConfirmation {
  checksum: string;
  operator: string;
}

/**
 * `provisioner station --configuration NAME`: provisions every device of the configuration that
 * is plugged in (USB hot-plug, BLE in range, IP devices found by multicast), `--lanes` at once,
 * until Ctrl-C; then writes the shift report and says where. With --json, one event a line. The
 * core's `station.*` channels run the station; this says its events and asks the operator.
 */
export async function station(
  ctx: CliContext,
  options: StationCommandOptions,
  interrupt?: AbortSignal,
): Promise<number> {
  if (options.lanes > STATION_MAX_LANES)
    throw new CliError(
      `--lanes must be a whole number of at most ${STATION_MAX_LANES}, not "${options.lanes}"`,
      EXIT.usage,
    );
  // The account settled and the jobs an earlier run left unfinished confirmed, before the shift.
  const core = await ctx.jobs();
  const confirmed = await confirmShift(ctx, options);
  const offEvents = core.subscribe('station.event', (event) => {
    if (ctx.out.json) ctx.out.jsonLine(event);
    else {
      // Said once the core took the confirmation (and wrote it to the ledger), before the shift's first line.
      if (event.event === 'station-started' && event.shift)
        ctx.out.line(
          t('cli:station.confirmed', { operator: event.shift.operator, checksum: event.shift.checksumShort }),
        );
      const line = eventLine(event);
      if (line) ctx.out.line(line);
    }
  });
  // What goes wrong beside the devices' outcomes: the sync check, a ledger write, the device list.
  const offWarnings = core.subscribe('logs.line', (line) => ctx.out.note(line.message));
  try {
    const stopped = new Promise<void>((resolve) => {
      if (!interrupt) return;
      if (interrupt.aborted) resolve();
      else interrupt.addEventListener('abort', () => resolve(), { once: true });
    });
    const started = await startStation(ctx, options, confirmed);
    if (!ctx.out.json)
      ctx.out.line(t('cli:station.plugIn', { name: started.configurationName ?? options.configuration }));
    await stopped;
    const { counts, yieldPercent, report } = await core.invoke('station.stop', {});
    // Beside the shift report, as the Station screen writes it; the shift's work stands without it.
    const commissioning = report?.commissioning ?? null;
    if (commissioning?.error) ctx.out.note(commissioning.error);
    else if (commissioning?.path && ctx.out.json)
      ctx.out.jsonLine({ event: 'commissioning-report', path: commissioning.path });
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
      if (report) ctx.out.line(t('cli:station.shiftReport', { path: report.path }));
      if (commissioning?.path) ctx.out.line(t('cli:station.commissioningReport', { path: commissioning.path }));
    }
    return counts.failed === 0 && counts.working === 0 ? EXIT.ok : EXIT.failed;
  } finally {
    offEvents();
    offWarnings();
  }
}

/** Starts the shift in the core; what it refuses is the command line's to fix. */
async function startStation(
  ctx: CliContext,
  options: StationCommandOptions,
  confirmed: ShiftConfirmation,
): Promise<StationView> {
  const core = await ctx.jobs();
  try {
    return await core.invoke('station.start', {
      configurationName: options.configuration,
      lanes: options.lanes,
      firmware: options.firmware,
      operator: confirmed.operator,
      checksum: confirmed.checksum,
      language: cliLanguage(),
      ...(options.report !== undefined ? { reportPath: options.report } : {}),
    });
  } catch (error) {
    // The core computes the checksum again: a configuration changed since its table was shown is refused.
    if (error instanceof CoreError && error.code === 'VALIDATION')
      throw new CliError(t('cli:station.didNotStart', { reason: error.message }), EXIT.usage);
    throw usageErrorOf(error);
  }
}

/** A configuration the core does not find (it names those there are), or input it refuses: the command line's to fix. */
function usageErrorOf(error: unknown): unknown {
  if (error instanceof CoreError && (error.code === 'NOT_FOUND' || error.code === 'INVALID_INPUT'))
    return new CliError(error.message, EXIT.usage);
  return error;
}

/**
 * The start of the shift (issue 26): every device's intended parameters and the configuration's
 * parameter checksum are shown; the operator types its short form (or gives it with
 * --confirm-checksum) and names themself. Only the right checksum is taken; the core checks it
 * again at the start, writes the confirmation to the ledger ('station-shift') and records each
 * device's verification of the shift as confirmed by it.
 */
async function confirmShift(ctx: CliContext, options: StationCommandOptions): Promise<ShiftConfirmation> {
  const core = await ctx.jobs();
  let view: StationShiftParametersView;
  try {
    view = await core.invoke('station.parameters', { configurationName: options.configuration });
  } catch (error) {
    throw usageErrorOf(error);
  }
  if (ctx.out.json) ctx.out.jsonLine({ event: 'shift-parameters', ...view });
  else for (const line of shiftParameterLines(view)) ctx.out.line(line);
  let typed = options.confirmChecksum ?? '';
  let refusal: string | null;
  if (options.confirmChecksum !== undefined) refusal = shortChecksumRefusal(view.checksumShort, typed);
  else if (!interactive(ctx)) refusal = t('cli:station.noOneConfirmed');
  else {
    refusal = t('cli:station.notConfirmed');
    for (let i = 0; i < 3 && refusal !== null; i += 1) {
      typed = await ask(t('cli:station.confirmPrompt'));
      refusal = shortChecksumRefusal(view.checksumShort, typed);
      if (refusal !== null) ctx.out.error(refusal);
    }
  }
  if (refusal !== null) throw new CliError(t('cli:station.didNotStart', { reason: refusal }), EXIT.usage);
  const operator = await technicianName(ctx, options.operator);
  if (operator === null) throw new CliError(t('cli:station.noOperator'), EXIT.usage);
  return { checksum: typed.trim(), operator };
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
