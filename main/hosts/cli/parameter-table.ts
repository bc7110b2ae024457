import {
  confirmationRefusal,
  parameterMismatchAdvice,
  parameterValueText,
  PARAMETER_GROUPS,
  shortChecksum,
  type ParameterComparison,
} from '../../../domain/running-parameters';
import type { CliContext } from './context';
import { ask, interactive } from './commands/function-test';
import { recordParameterVerifications } from './parameter-record';
import type { JobSnapshot } from '../../../domain/jobs';
import { parameterGroupLabel, parameterLabel, parameterValueLabel } from '../../../domain/parameter-labels';
import { SOURCE_LANGUAGE } from '../../../domain/i18n/index.js';
import { cliTranslator, t } from './cli-language';

/**
 * The parameter table as the CLI prints it (issue 26): parameter, intended, running on the device,
 * grouped, each row marked; both checksums short (the safety signature); what to do on a mismatch.
 */
export function parameterTableLines(serialNumber: string, comparison: ParameterComparison): string[] {
  const translator = cliTranslator();
  const { t } = translator;
  // English keeps the domain's own English words; another language the translated ones (domain namespace).
  const english = translator.language === SOURCE_LANGUAGE;
  const label = (row: ParameterComparison['rows'][number]) =>
    english ? row.label : parameterLabel(row.key, translator);
  const value = (v: ParameterComparison['rows'][number]['intended'], unit: string, key: string) =>
    english ? parameterValueText(v, unit, key) : parameterValueLabel(v, unit, key, translator);
  const width = Math.max(...comparison.rows.map((row) => label(row).length), t('cli:params.header.parameter').length);
  const valueWidth = Math.max(
    ...comparison.rows.map((row) => value(row.intended, row.unit, row.key).length),
    t('cli:params.header.intended').length,
  );
  const lines = [t('cli:params.headline', { serial: serialNumber, match: comparison.match ? 'yes' : 'no' })];
  lines.push(
    `  ${t('cli:params.header.parameter').padEnd(width)}  ${t('cli:params.header.intended').padEnd(valueWidth)}  ${t('cli:params.header.running')}`,
  );
  let group: string | undefined;
  for (const row of comparison.rows) {
    if (row.group !== group) {
      group = row.group;
      lines.push(`  ${english ? PARAMETER_GROUPS[row.group] : parameterGroupLabel(row.group, translator)}`);
    }
    const mark = row.match ? ' ' : '✗';
    lines.push(
      `${mark} ${label(row).padEnd(width)}  ${value(row.intended, row.unit, row.key).padEnd(valueWidth)}  ${value(row.running, row.unit, row.key)}${row.match ? '' : `   ${t('cli:params.differs')}`}`,
    );
  }
  const by = comparison.checksumBy === 'device' ? t('cli:params.checksumBy.device') : t('cli:params.checksumBy.tool');
  lines.push(`  ${t('cli:params.checksumIntended', { checksum: shortChecksum(comparison.intendedChecksum) })}`);
  lines.push(
    `  ${t('cli:params.checksumRunning', { checksum: shortChecksum(comparison.runningChecksum), by })}${comparison.checksumsMatch ? '' : `   ${t('cli:params.checksumsDiffer')}`}`,
  );
  if (!comparison.runningChecksumConsistent) lines.push(`  ${t('cli:params.inconsistent')}`);
  const advice = english ? parameterMismatchAdvice(comparison) : translatedAdvice(comparison, t);
  if (advice) lines.push(`  ${t('cli:params.whatToDo', { advice })}`);
  return lines;
}

/** parameterMismatchAdvice's two cases (domain/running-parameters.ts), in the run's language. */
function translatedAdvice(comparison: ParameterComparison, t: (key: string) => string): string | null {
  if (comparison.match) return null;
  return comparison.runningChecksumConsistent ? t('cli:params.advice.mismatch') : t('cli:params.advice.faulty');
}

/** The table as --json gives it. */
export function parameterTableJson(serialNumber: string, comparison: ParameterComparison) {
  return {
    serialNumber,
    match: comparison.match,
    rows: comparison.rows.map(({ key, group, label, unit, intended, running, match }) => ({
      key,
      group,
      label,
      unit,
      intended,
      running,
      match,
    })),
    intendedChecksum: comparison.intendedChecksum,
    runningChecksum: comparison.runningChecksum,
    intendedChecksumShort: shortChecksum(comparison.intendedChecksum),
    runningChecksumShort: shortChecksum(comparison.runningChecksum),
    checksumBy: comparison.checksumBy,
    runningChecksumConsistent: comparison.runningChecksumConsistent,
    tableDigest: comparison.tableDigest,
    advice: parameterMismatchAdvice(comparison),
  };
}

/**
 * The technician's own name: --technician, else PROVISIONER_TECHNICIAN, else asked at the terminal
 * once per run. An API key is often shared by a team, so its name does not say who confirmed.
 */
export async function technicianName(ctx: CliContext, given: string | undefined): Promise<string | null> {
  const name = (given ?? ctx.io.env.PROVISIONER_TECHNICIAN ?? '').trim();
  if (name !== '') return name.slice(0, 200);
  if (!interactive(ctx)) return null;
  for (let i = 0; i < 3; i += 1) {
    const answer = (await ask(t('cli:params.askName'))).trim();
    if (answer !== '') return answer.slice(0, 200);
  }
  return null;
}

/**
 * The confirmation: the person types the device's short checksum. `given` is --confirm-checksum;
 * without it a person at the terminal is asked (three tries). Returns null when confirmed, or why not.
 */
export async function confirmParameters(
  ctx: CliContext,
  comparison: ParameterComparison,
  given: string | undefined,
): Promise<string | null> {
  if (given !== undefined) return confirmationRefusal(comparison, given);
  if (!comparison.match) return confirmationRefusal(comparison, '');
  if (!interactive(ctx)) return t('cli:params.nobodyConfirmed');
  let refusal: string | null = 'not confirmed';
  for (let i = 0; i < 3 && refusal !== null; i += 1) {
    refusal = confirmationRefusal(comparison, await ask(t('cli:params.askChecksum')));
    if (refusal !== null) ctx.out.error(refusal);
  }
  return refusal;
}

export interface ParameterConfirmationOptions {
  technician?: string;
  confirmChecksum?: string;
}

/**
 * The end of `device configuration update`: each applied device's table, then the person confirms
 * it by typing the running checksum (or gives it with --confirm-checksum). A mismatch is never
 * confirmable; each verification goes to the ledger, naming the person when one confirmed.
 * Returns false when a confirmation was refused or a table differs; a table nobody was there to
 * confirm is said, and leaves the device not commissioned.
 */
export async function confirmAppliedParameters(
  ctx: CliContext,
  finals: readonly JobSnapshot[],
  options: ParameterConfirmationOptions,
): Promise<boolean> {
  let accepted = true;
  for (const job of finals) {
    const comparison = job.parameters;
    const serialNumber = job.serialNumber;
    if (!comparison || !serialNumber || !job.syncId) continue;
    if (ctx.out.json) ctx.out.jsonLine({ event: 'parameters', ...parameterTableJson(serialNumber, comparison) });
    else for (const line of parameterTableLines(serialNumber, comparison)) ctx.out.line(line);
    const verified = { serialNumber, link: job.link ?? job.linkId, syncId: job.syncId, comparison };
    if (!comparison.match) {
      await recordParameterVerifications(ctx, [verified], await technicianName(ctx, options.technician), null);
      accepted = false;
      continue;
    }
    const refusal = await confirmParameters(ctx, comparison, options.confirmChecksum);
    const person = refusal === null ? await technicianName(ctx, options.technician) : null;
    if (refusal === null && person === null) {
      ctx.out.error(t('cli:params.needsName', { serial: serialNumber }));
      await recordParameterVerifications(ctx, [verified], null, null);
      accepted = false;
      continue;
    }
    if (refusal !== null) {
      const nobody = options.confirmChecksum === undefined && !interactive(ctx);
      if (nobody) ctx.out.note(t('cli:params.notConfirmed', { serial: serialNumber, reason: refusal }));
      else ctx.out.error(t('cli:params.refused', { serial: serialNumber, reason: refusal }));
      await recordParameterVerifications(ctx, [verified], await technicianName(ctx, options.technician), null);
      if (!nobody) accepted = false;
      continue;
    }
    await recordParameterVerifications(ctx, [verified], person, { person: person!, at: new Date() });
    if (ctx.out.json)
      ctx.out.jsonLine({
        event: 'parameters-confirmed',
        serialNumber,
        confirmedBy: person,
        checksum: shortChecksum(comparison.runningChecksum),
      });
    else
      ctx.out.line(
        t('cli:params.confirmed', {
          serial: serialNumber,
          person: person ?? '',
          checksum: shortChecksum(comparison.runningChecksum),
        }),
      );
  }
  return accepted;
}
