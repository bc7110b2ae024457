import { describe, expect, it } from 'vitest';
import type { StationCounts, StationEvent } from '../../../../contract/station';
import { eventLine } from '../../../../main/hosts/cli/commands/station';

/** What `provisioner station` prints for a person (without --json): one line per event that matters. */

const counts: StationCounts = { done: 0, failed: 0, waiting: 0, working: 0, inSync: 0, refused: 0, duplicate: 0 };
const at = '2026-11-25T13:00:00.000Z';

describe('the station’s lines', () => {
  it('says done, failed with what to do, refused and duplicate in capitals a glance finds, and leaves progress to the tiles', () => {
    const events: StationEvent[] = [
      { at, counts, event: 'station-started', configurationName: 'Loader 7 remote (ISM)', configurationSize: 2, lanes: 1, firmware: 'latest' },
      { at, counts, event: 'progress', serialNumber: 'EPC000101', step: 'firmware', percent: 40 },
      { at, counts, event: 'done', serialNumber: 'EPC000101', link: 'serial:/dev/ttyACM0', firmwareVersion: '1.1.0', syncId: 's', text: 'firmware 1.1.0 installed' },
      { at, counts, event: 'failed', serialNumber: 'SRCP000101', link: 'serial:/dev/ttyACM1', errorCode: 'DEVICE_GONE', reason: 'firmware upload failed at 31%', action: 'Plug it in again: the upload resumes where it stopped.', resumable: true },
      { at, counts, event: 'refused', serialNumber: 'EPC000103', link: 'serial:/dev/ttyACM2', reason: 'EPC000103 is not in the configuration' },
      { at, counts, event: 'duplicate', serialNumber: 'EPC000101', link: 'serial:/dev/ttyACM3', reason: 'EPC000101 was already provisioned' },
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
});
