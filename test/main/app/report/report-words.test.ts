import { describe, expect, it } from 'vitest';
import { dateTimeText, deployStatusText, namesText } from '../../../../main/app/report/report-words';

/** The report's values as a person reads them: no ISO timestamps, no enum names (issue 32). */

describe('the report in words', () => {
  it('states a time with its date, 24-hour time and zone, in the zone asked for', () => {
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'UTC')).toBe('28 Nov 2026, 17:05 UTC');
    expect(dateTimeText('2026-11-28T17:05:09.123Z', 'Europe/Berlin')).toBe('28 Nov 2026, 18:05 CET');
    // After midnight in that zone: the date moves too.
    expect(dateTimeText('2026-07-01T23:30:00Z', 'Europe/Berlin')).toBe('2 Jul 2026, 01:30 CEST');
    expect(dateTimeText('2026-01-05T03:04:00Z', 'America/New_York')).toBe('4 Jan 2026, 22:04 GMT-5');
  });

  it('gives back what is not a time, and says an unknown zone in UTC', () => {
    expect(dateTimeText('not recorded', 'UTC')).toBe('not recorded');
    expect(dateTimeText('2026-11-28T17:05:00Z', 'Mars/Olympus_Mons')).toBe('28 Nov 2026, 17:05 UTC');
  });

  it('says the deploy status in words, and an unknown one as it is', () => {
    expect(deployStatusText('NotDeployed')).toBe('Not yet applied');
    expect(deployStatusText('Deployed')).toBe('Deployed');
    expect(deployStatusText('Outdated')).toMatch(/^Outdated: the configuration changed after it was applied/);
    expect(deployStatusText('Failed')).toMatch(/^Failed: /);
    expect(deployStatusText('Paused')).toBe('Paused');
  });

  it('joins names as a sentence does', () => {
    expect(namesText([])).toBe('');
    expect(namesText(['Ada Lovelace'])).toBe('Ada Lovelace');
    expect(namesText(['Ada', 'Bob'])).toBe('Ada and Bob');
    expect(namesText(['Ada', 'Bob', 'Cy'])).toBe('Ada, Bob and Cy');
  });
});
