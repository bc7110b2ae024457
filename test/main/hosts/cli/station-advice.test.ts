import { describe, expect, it } from 'vitest';
import type { StationCounts, StationEvent } from '../../../../contract/station';
import { failedLaneView } from '../../../fixtures/station-lane';
import { createTranslator } from '../../../../domain/i18n/index.js';
import { stationAdviceFor, stationAdviceText, type StationAdvice } from '../../../../domain/station-advice';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { eventLine } from '../../../../main/hosts/cli/commands/station';
import { stationAdvice } from '../../../../main/features/station/failure-advice';
import { tileWords } from '../../../../renderer/station/tile-words';

/**
 * What the person at a station does about a failed device, in the reader's language (issue 29):
 * the station core sends the advice as a code beside its English sentence; the CLI's FAILED line
 * and the Station screen's tile say it from the station catalog.
 */

const counts: StationCounts = { done: 0, failed: 1, waiting: 0, working: 0, inSync: 0, refused: 0, duplicate: 0 };
const resumes: StationAdvice = { kind: 'resumes' };
const englishAction = 'Plug it in again: the upload resumes where it stopped.';

const failed = (advice: StationAdvice | null): StationEvent => ({
  at: '2026-11-25T13:00:00.000Z',
  counts,
  event: 'failed',
  serialNumber: 'SRCP000101',
  link: 'serial:/dev/ttyACM1',
  errorCode: 'DEVICE_DISCONNECTED',
  reason: 'firmware update: failed',
  failureReason: null,
  action: englishAction,
  advice,
  resumable: true,
});

describe('a Station lane’s advice', () => {
  it('is the same English sentence from its code as the core has always written', () => {
    const jobs = [
      { phase: 'failed', resumable: true, errorCode: 'DEVICE_GONE' },
      { phase: 'failed', resumable: false, errorCode: 'FW_BAD_SIGNATURE' },
      { phase: 'failed', resumable: false, errorCode: 'SERVICE_UNREACHABLE' },
      { phase: 'failed', resumable: false, errorCode: 'CONFIG_INCOMPLETE' },
      { phase: 'failed', resumable: false, errorCode: 'DEVICE_TIMEOUT' },
      { phase: 'failed', resumable: false, errorCode: null },
      { phase: 'cancelled', resumable: true, errorCode: null },
      { phase: 'done', resumable: false, errorCode: null },
    ] as const;
    const kinds = jobs.map((job) => stationAdviceFor(job).kind);
    expect(kinds).toEqual([
      'resumes',
      'notTrusted',
      'checkService',
      'completeConfiguration',
      'retryOrRepair',
      'retryOrRepair',
      'nextShift',
      'stepNotDone',
    ]);
    expect(stationAdvice(jobs[0])).toBe(englishAction);
    expect(stationAdvice(jobs[1])).toBe(
      'Set it aside for the engineer (code FW_BAD_SIGNATURE): the device or the file is not trusted.',
    );
    expect(stationAdvice(jobs[4])).toMatch(/set it aside for repair \(code DEVICE_TIMEOUT\)\.$/);
    expect(stationAdvice(jobs[5])).toMatch(/set it aside for repair\.$/);
  });

  it('says every advice in every language, none of them the English', () => {
    const all: StationAdvice[] = [
      { kind: 'stepNotDone' },
      { kind: 'nextShift' },
      { kind: 'resumes' },
      { kind: 'parametersDiffer' },
      { kind: 'completeConfiguration' },
      { kind: 'notTrusted', code: 'FW_BAD_SIGNATURE' },
      { kind: 'checkService' },
      { kind: 'retryOrRepair', code: null },
      { kind: 'retryOrRepair', code: 'DEVICE_TIMEOUT' },
      { kind: 'shiftChanged' },
    ];
    for (const language of ['de', 'fr', 'es', 'zh'] as const) {
      const words = createTranslator(language);
      for (const advice of all) {
        const said = stationAdviceText(advice, words);
        expect(said).not.toBe(stationAdviceText(advice));
        if ('code' in advice && advice.code) expect(said).toContain(advice.code);
      }
    }
  });

  it('on the CLI: in German from the code, the core’s sentence in English and from an older core', () => {
    const german = inCliLanguage('de', () => eventLine(failed(resumes)));
    expect(german).toContain(stationAdviceText(resumes, createTranslator('de')));
    expect(german).not.toContain(englishAction);
    expect(inCliLanguage('en', () => eventLine(failed(resumes)))).toContain(englishAction);
    expect(inCliLanguage('de', () => eventLine(failed(null)))).toContain(englishAction);
  });

  it('on the Station screen’s tile: in Chinese from the code, the core’s sentence without one', () => {
    const lane = failedLaneView({ action: englishAction, advice: resumes });
    expect(tileWords(lane, createTranslator('zh')).action).toBe('重新接入：传输会从中断处继续。');
    expect(tileWords({ ...lane, advice: null }, createTranslator('zh')).action).toBe(englishAction);
  });
});
