import type { DeployStatus } from '../../../domain/enums';

/**
 * The commissioning report's values as a person reads them (issue 32): the report's running text
 * says "Deployed" and "28 Nov 2026, 17:05 UTC", never "NotDeployed" or an ISO timestamp; the
 * exact values stay in the JSON and in the PDF's appendix.
 */

/** What the service's deploy status means on site. */
export const DEPLOY_STATUS_WORDS: Record<DeployStatus, string> = {
  NotDeployed: 'Not yet applied',
  Outdated: 'Outdated: the configuration changed after it was applied',
  Deployed: 'Deployed',
  Failed: 'Failed: the last apply did not succeed',
};

/** An unknown status (a newer service) is shown as it is rather than hidden. */
export function deployStatusText(status: string): string {
  return (DEPLOY_STATUS_WORDS as Record<string, string | undefined>)[status] ?? status;
}

/** The workstation's own time zone: the one a technician's watch shows. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * "28 Nov 2026, 17:05 UTC": day, month in letters (no day/month order to misread), 24-hour time
 * and the zone's short name. Built from parts so no locale slips in a narrow no-break space the
 * PDF's standard fonts cannot print. A value that is not a time is given back as it is.
 */
export function dateTimeText(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
  } catch {
    // A zone this runtime does not know: say it in UTC rather than fail the report.
    return dateTimeText(iso, 'UTC');
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value])) as Partial<Record<Intl.DateTimeFormatPartTypes, string>>;
  return `${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute} ${part.timeZoneName}`;
}

/** "Ada Lovelace", "Ada Lovelace and Bob", "Ada, Bob and Cy". */
export function namesText(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
