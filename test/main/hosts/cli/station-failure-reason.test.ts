import { describe, expect, it } from 'vitest';
import type { StationCounts, StationEvent } from '../../../../contract/station';
import { failedLaneView } from '../../../fixtures/station-lane';
import type { FailureReason } from '../../../../domain/job-failure';
import type { KeptApartReason } from '../../../../domain/station-kept-apart';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { eventLine } from '../../../../main/hosts/cli/commands/station';
import { tileWords } from '../../../../renderer/station/tile-words';

/**
 * Why a Station lane failed, in the reader's language (issue 29): the station core sends the job's
 * reason as codes and values beside its English sentence; the CLI's FAILED line and the Station
 * screen's tile say it from the catalogs. A lane kept apart sends the rows that differ, which
 * both say in the reader's words. A lane without either keeps the core's sentence.
 */

const counts: StationCounts = { done: 0, failed: 1, waiting: 0, working: 0, inSync: 0, refused: 0, duplicate: 0 };
const reason: FailureReason = { cause: 'disconnected', step: 'firmware', place: 'upload', percent: 31 };
const english = 'firmware update: failed: firmware upload failed at 31%: the device disconnected (cable pulled?)';

const failed = (failureReason: FailureReason | null): Extract<StationEvent, { event: 'failed' }> => ({
  at: '2026-11-25T13:00:00.000Z',
  counts,
  event: 'failed',
  serialNumber: 'SRCP000101',
  link: 'serial:/dev/ttyACM1',
  errorCode: 'DEVICE_DISCONNECTED',
  reason: english,
  failureReason,
  action: 'Plug it in again: the upload resumes where it stopped.',
  resumable: true,
});

describe('a Station lane’s failure reason', () => {
  it('on the CLI: the reason in German, the core’s sentence in English and where there is no reason', () => {
    const german = inCliLanguage('de', () => eventLine(failed(reason)));
    expect(german).toContain(
      'SRCP000101: FEHLGESCHLAGEN: Übertragung der Firmware bei 31\u00a0% fehlgeschlagen: Die Verbindung zum Gerät ist abgerissen (Kabel gezogen?)',
    );
    expect(german).not.toContain('cable pulled');
    expect(inCliLanguage('en', () => eventLine(failed(reason)))).toContain(english);
    expect(inCliLanguage('de', () => eventLine(failed(null)))).toContain(english);
  });

  it('on the Station screen’s tile: the reason in Chinese, the core’s detail without one', () => {
    const lane = failedLaneView({ detail: english, failureReason: reason });
    expect(tileWords(lane, createTranslator('zh')).detail).toBe('固件传输在 31% 时失败：设备已断开（线缆被拔出？）');
    expect(tileWords({ ...lane, failureReason: null }, createTranslator('zh')).detail).toBe(english);
  });

  it('a lane kept apart: the parameter that differs in German on the CLI and in Chinese on the tile', () => {
    const keptApart: KeptApartReason = {
      kind: 'parametersDiffer',
      rows: [{ key: 'safety.timeout', unit: 'ms', first: 500, second: 1024 }],
    };
    const sentence =
      'The device took its configuration file but does not run its parameters: Safety timeout 500 ms intended, 1024 ms running.';
    const event: StationEvent = { ...failed(null), errorCode: 'PARAMETERS_MISMATCH', reason: sentence, keptApart };
    const german = inCliLanguage('de', () => eventLine(event));
    expect(german).toContain('Sicherheits-Timeout vorgesehen 500 ms, im Gerät 1024 ms');
    expect(german).not.toContain('Safety timeout');
    expect(inCliLanguage('en', () => eventLine(event))).toContain(sentence);

    const lane = failedLaneView({ detail: sentence, keptApart, headline: 'Failed: parameters differ, keep it apart' });
    const tile = tileWords(lane, createTranslator('zh'));
    expect(tile.detail).toBe('设备已接收其配置文件，但运行的不是其中的参数：安全超时 预期 500 ms，实际运行 1024 ms。');
    expect(tile.headline).toBe(createTranslator('zh').t('station:tile.keptApart'));
  });
});
