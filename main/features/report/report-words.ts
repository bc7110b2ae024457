import type { DeployStatus } from '../../../domain/enums';
import { CATALOGS, createTranslator, type Translator } from '../../../domain/i18n/index.js';
import type { CommissioningState, CommissioningStep } from '../../../domain/ledger-commissioning';

/**
 * The commissioning report's values as a person reads them (issue 32): the report's running text
 * says "Deployed" and "28 Nov 2026, 17:05 UTC", never "NotDeployed" or an ISO timestamp; the
 * exact values stay in the JSON and in the PDF's appendix.
 */

/** What a report's words need of a translator: its messages and its locale. */
export type ReportWords = Pick<Translator, 't' | 'locale'>;

function english(): ReportWords {
  return createTranslator('en');
}

const DEPLOY_STATUSES = ['NotDeployed', 'Outdated', 'Deployed', 'Failed'] as const satisfies readonly DeployStatus[];

/** What the service's deploy status means on site, in English (the report catalog's words). */
export const DEPLOY_STATUS_WORDS: Record<DeployStatus, string> = Object.fromEntries(
  DEPLOY_STATUSES.map((status) => [status, CATALOGS.en.report[`deployStatus.${status}`] ?? status]),
) as Record<DeployStatus, string>;

/** The deploy status in the reader's language; an unknown status (a newer service) is shown as it is rather than hidden. */
export function deployStatusText(status: string, words: ReportWords = english()): string {
  return (DEPLOY_STATUSES as readonly string[]).includes(status) ? words.t(`report:deployStatus.${status}`) : status;
}

/**
 * Items of a list that is not a sentence ("parameter verification, function test", "应用配置、功能测试"),
 * joined by the language's own separator (Intl's lists say "and", which these lists do not mean).
 */
export function listText(items: readonly string[], words: ReportWords = english()): string {
  return items.join(words.t('report:listSeparator'));
}

/**
 * A device's commissioning state in words, with the steps it still misses: "not commissioned: no
 * function test since the configuration was applied", "NICHT in Betrieb genommen: … (fehlt: …)".
 * The words of a failed step already name it; the rest still missing follow.
 */
export function commissioningStatusText(
  state: CommissioningState,
  missing: readonly CommissioningStep[],
  words: ReportWords = english(),
): string {
  const status = words.t(`report:commissioning.${state}`);
  if (state === 'commissioned') return status;
  const named: CommissioningStep | null =
    state === 'not-commissioned' ? 'function test' : state === 'parameters-differ' ? 'parameter verification' : null;
  const rest = missing.filter((step) => step !== named).map((step) => words.t(`report:commissioningStep.${step}`));
  if (rest.length === 0) return status;
  return words.t('report:commissioning.withMissing', { status, steps: listText(rest, words) });
}

/** The workstation's own time zone: the one a technician's watch shows. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * "28 Nov 2026, 17:05 UTC", "28. Nov. 2026, 18:05 MEZ", "2026年11月28日 UTC 17:05": day, month in
 * letters (no day/month order to misread), 24-hour time and the zone's short name, in the
 * reader's locale through Intl. English is built from parts so no locale slips in a narrow
 * no-break space; in the others the PDF's fonts print such spaces as plain ones. A value that is
 * not a time is given back as it is.
 */
export function dateTimeText(iso: string, timeZone: string, locale = 'en-GB'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
  } catch {
    // A zone this runtime does not know: say it in UTC rather than fail the report.
    return dateTimeText(iso, 'UTC', locale);
  }
  if (locale !== 'en-GB') return format.format(at).replace(/[\u202f\u2009]/g, ' ');
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value])) as Partial<
    Record<Intl.DateTimeFormatPartTypes, string>
  >;
  return `${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

/** The zone's short name as dateTimeText writes it ("UTC", "MEZ", "GMT+1"). */
export function timeZoneShortName(iso: string, timeZone: string, locale = 'en-GB'): string {
  try {
    return (
      new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' })
        .formatToParts(new Date(iso))
        .find((p) => p.type === 'timeZoneName')?.value ?? ''
    );
  } catch {
    return '';
  }
}

/** "Ada Lovelace", "Ada Lovelace and Bob", "Ada, Bob and Cy"; "Ada, Bob und Cy" in German (Intl.ListFormat). */
export function namesText(names: readonly string[], locale = 'en-GB'): string {
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(names);
}
