import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadStationRoster, StationSetupError } from '../../../../main/features/station/roster';
import { SHIFT_REPORT_COLUMNS, shiftReportCsv, shiftReportPath } from '../../../../main/features/station/shift-report';
import { stationAdvice } from '../../../../main/features/station/failure-advice';
import { yieldPercent } from '../../../../main/features/station/counts';

/** The station's configuration by name, its shift report's CSV, what it advises and its yield. */

function clientWith(
  configurations: Array<{
    id: string;
    name: string;
    devices: Array<{ serialNumber: string; deviceType: 'EPC' | 'SRCP' }>;
  }>,
) {
  return {
    configurations: {
      listAll: async function* () {
        yield* configurations;
      },
    },
  } as unknown as Parameters<typeof loadStationRoster>[0];
}

describe('the station’s configuration', () => {
  const loader = {
    id: 'c1',
    name: 'Loader 7 remote (ISM)',
    devices: [{ serialNumber: 'EPC000101', deviceType: 'EPC' as const }],
  };

  it('is found by its name, ignoring case and spaces around it', async () => {
    const roster = await loadStationRoster(
      clientWith([loader, { id: 'c2', name: 'Press cell', devices: [] }]),
      '  loader 7 REMOTE (ism) ',
    );
    expect(roster).toMatchObject({ configurationId: 'c1', configurationName: 'Loader 7 remote (ISM)' });
    expect([...roster.devices]).toEqual([['EPC000101', 'EPC']]);
  });

  it('refuses a name that matches none (listing those there are), several, or a configuration with no device', async () => {
    await expect(loadStationRoster(clientWith([loader]), 'Loader 9')).rejects.toThrow(
      'No configuration is named "Loader 9". There are: "Loader 7 remote (ISM)".',
    );
    await expect(loadStationRoster(clientWith([]), 'Loader 9')).rejects.toThrow(
      'This organization has no configuration yet',
    );
    await expect(
      loadStationRoster(clientWith([loader, { ...loader, id: 'c3' }]), 'Loader 7 remote (ISM)'),
    ).rejects.toThrow('2 configurations are named');
    await expect(
      loadStationRoster(clientWith([{ ...loader, devices: [] }]), 'Loader 7 remote (ISM)'),
    ).rejects.toBeInstanceOf(StationSetupError);
  });
});

describe('the shift report', () => {
  it('quotes commas and quotes, and keeps a device’s error text from running as a spreadsheet formula', () => {
    const row = [
      'EPC000101',
      'EPC',
      'serial:/dev/ttyACM0',
      'failed',
      '1.0.0',
      '',
      '',
      'sent',
      '1',
      't0',
      't1',
      '=HYPERLINK("x"), then "more"',
      '-1 step',
    ];
    const [parsed] = parse(shiftReportCsv([row]), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(parsed!)).toEqual([...SHIFT_REPORT_COLUMNS]);
    expect(parsed!.reason).toBe(`'=HYPERLINK("x"), then "more"`);
    expect(parsed!.whatToDo).toBe(`'-1 step`);
    expect(parsed!.serialNumber).toBe('EPC000101');
  });

  it('is named after the shift’s start and its configuration', () => {
    expect(
      shiftReportPath('/data/station', {
        configurationName: 'Loader 7 remote (ISM)',
        startedAt: '2026-11-25T12:59:53.123Z',
      }),
    ).toBe('/data/station/shift-20261125T125953Z-Loader-7-remote-ISM.csv');
  });
});

describe('what the station advises and its yield', () => {
  it('says to plug in again when the upload resumes, and to set aside what is not trusted', () => {
    expect(stationAdvice({ phase: 'failed', resumable: true, errorCode: 'DEVICE_GONE' })).toBe(
      'Plug it in again: the upload resumes where it stopped.',
    );
    expect(stationAdvice({ phase: 'failed', resumable: false, errorCode: 'FW_BAD_SIGNATURE' })).toContain(
      'Set it aside for the engineer (code FW_BAD_SIGNATURE)',
    );
    expect(stationAdvice({ phase: 'failed', resumable: false, errorCode: 'DEVICE_TIMEOUT' })).toContain(
      'check the cable and plug it in again',
    );
  });

  it('counts done out of done and failed, none before any finished', () => {
    expect(yieldPercent({ done: 0, failed: 0 })).toBeNull();
    expect(yieldPercent({ done: 2, failed: 1 })).toBe(66.7);
  });
});
