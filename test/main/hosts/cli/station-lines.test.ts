import { describe, expect, it } from 'vitest';
import type { StationCounts, StationEvent } from '../../../../contract/station';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { eventLine, shiftParameterLines } from '../../../../main/hosts/cli/commands/station';

/** What `provisioner station` prints for a person (without --json): one line per event that matters. */

const counts: StationCounts = { done: 0, failed: 0, waiting: 0, working: 0, inSync: 0, refused: 0, duplicate: 0 };
const at = '2026-11-25T13:00:00.000Z';

describe('the station’s lines', () => {
  it('says done, failed with what to do, refused and duplicate in capitals a glance finds, and leaves progress to the tiles', () => {
    const events: StationEvent[] = [
      {
        at,
        counts,
        event: 'station-started',
        configurationName: 'Loader 7 remote (ISM)',
        configurationSize: 2,
        lanes: 1,
        firmware: 'latest',
      },
      { at, counts, event: 'progress', serialNumber: 'EPC000101', step: 'firmware', percent: 40 },
      {
        at,
        counts,
        event: 'done',
        serialNumber: 'EPC000101',
        link: 'serial:/dev/ttyACM0',
        firmwareVersion: '1.1.0',
        syncId: 's',
        text: 'firmware 1.1.0 installed',
      },
      {
        at,
        counts,
        event: 'failed',
        serialNumber: 'SRCP000101',
        link: 'serial:/dev/ttyACM1',
        errorCode: 'DEVICE_GONE',
        reason: 'firmware upload failed at 31%',
        action: 'Plug it in again: the upload resumes where it stopped.',
        resumable: true,
      },
      {
        at,
        counts,
        event: 'refused',
        serialNumber: 'EPC000103',
        link: 'serial:/dev/ttyACM2',
        reason: 'EPC000103 is not in the configuration',
      },
      {
        at,
        counts,
        event: 'duplicate',
        serialNumber: 'EPC000101',
        link: 'serial:/dev/ttyACM3',
        reason: 'EPC000101 was already provisioned',
      },
    ];
    expect(events.map(eventLine)).toEqual([
      'Station for "Loader 7 remote (ISM)" (2 devices), 1 lane, firmware: latest.',
      null,
      'EPC000101: DONE, unplug it (firmware 1.1.0 installed)',
      'SRCP000101: FAILED: firmware upload failed at 31%. Plug it in again: the upload resumes where it stopped.',
      'EPC000103: REFUSED: EPC000103 is not in the configuration',
      'EPC000101: DUPLICATE: EPC000101 was already provisioned',
    ]);
  });

  it('are said in German and Chinese, the data (serial numbers, links, checksums, names) as it is', () => {
    const shift = { operator: 'Ola Operator', checksumShort: '1A2B3C4D', confirmedAt: at };
    const events: StationEvent[] = [
      {
        at,
        counts,
        event: 'station-started',
        configurationName: 'Loader 7 remote (ISM)',
        configurationSize: 1,
        lanes: 2,
        firmware: 'keep',
        shift,
      },
      { at, counts, event: 'waiting', serialNumber: 'EPC000101', link: 'serial:/dev/ttyACM0' },
      { at, counts, event: 'lane-started', serialNumber: 'EPC000101', link: 'serial:/dev/ttyACM0', resumed: true },
      { at, counts, event: 'unplugged', serialNumber: 'EPC000101', link: 'serial:/dev/ttyACM0' },
    ] as StationEvent[];
    expect(inCliLanguage('de', () => events.map(eventLine))).toEqual([
      'Station für „Loader 7 remote (ISM)“ (1 Gerät), 2 Spuren, Firmware: keep; Parameter-Prüfsumme 1A2B3C4D bestätigt von Ola Operator.',
      'EPC000101: angesteckt (serial:/dev/ttyACM0), wartet auf eine freie Spur',
      'EPC000101: wird fortgesetzt',
      'EPC000101: abgesteckt',
    ]);
    expect(inCliLanguage('zh', () => events.map(eventLine))).toEqual([
      '“Loader 7 remote (ISM)”的工作站（1 台设备），2 个通道，固件：keep；参数校验和 1A2B3C4D 已由 Ola Operator 确认。',
      'EPC000101: 已插入（serial:/dev/ttyACM0），等待空闲通道',
      'EPC000101: 继续',
      'EPC000101: 已拔下',
    ]);
    expect(inCliLanguage('en', () => eventLine(events[0]!))).toBe(
      'Station for "Loader 7 remote (ISM)" (1 device), 2 lanes, firmware: keep; parameters checksum 1A2B3C4D confirmed by Ola Operator.',
    );
  });

  it('show the shift’s parameters with the headline and checksum words of the language', () => {
    const view = {
      configurationName: 'Loader 7',
      checksumShort: 'CAFEF00D',
      devices: [
        {
          serialNumber: 'EPC000101',
          deviceType: 'EPC',
          checksumShort: '0BADBEEF',
          rows: [{ group: 'Safety', label: 'Timeout', intended: '200 ms' }],
        },
      ],
    } as unknown as Parameters<typeof shiftParameterLines>[0];
    expect(inCliLanguage('de', () => shiftParameterLines(view))).toEqual([
      'Parameter von „Loader 7“, wie seine Konfigurationsdateien sie vorsehen:',
      '  EPC000101 (EPC), Prüfsumme 0BADBEEF',
      '    Safety',
      '      Timeout    200 ms',
      'Konfigurations-Prüfsumme: CAFEF00D',
    ]);
  });
});
