import { describe, expect, it } from 'vitest';
import type { JobView } from '../../contract/index';
import {
  jobPercent,
  phaseText,
  progressStatus,
  secondsLeft,
  workbenchSummary,
} from '../../renderer/format/progress-status';
import { durationText, rateText } from '../../renderer/format/units';
import { jobView } from '../fixtures/job-view';
import { createTranslator } from '../../domain/i18n/index.js';

/** The fixture's job a quarter through 100 kB at 10 kB/s, three seconds in: the figures these texts are checked against. */
function job(change: Partial<JobView> = {}): JobView {
  return jobView({
    linkId: 'serial:/dev/ttyACM0',
    bytesDone: 25_000,
    bytesTotal: 100_000,
    rateBytesPerSecond: 10_000,
    updatedAt: '2026-01-01T00:00:03.000Z',
    ...change,
  });
}

describe('progress status texts', () => {
  it('says what the device is doing, per step', () => {
    expect(phaseText('uploading', 'firmware')).toBe('Uploading firmware');
    expect(phaseText('uploading', 'configuration')).toBe('Uploading configuration');
    expect(phaseText('rebooting', 'firmware')).toBe('Waiting for the device to restart');
  });

  it('measures transfers in bytes and fixes the other phases', () => {
    expect(jobPercent(job())).toBe(30);
    expect(jobPercent(job({ phase: 'queued' }))).toBe(0);
    expect(jobPercent(job({ phase: 'done' }))).toBe(100);
    expect(jobPercent(job({ phase: 'failed' }))).toBeNull();
    // "Both": firmware takes the first 80 %, configuration the rest.
    expect(jobPercent(job({ action: 'both' }))).toBe(24);
    expect(jobPercent(job({ action: 'both', step: 'configuration', phase: 'confirming' }))).toBeCloseTo(99.8);
  });

  it('gives the time left from the rate, only while transferring', () => {
    expect(secondsLeft(job())).toBe(7.5);
    expect(secondsLeft(job({ phase: 'applying' }))).toBeNull();
    expect(secondsLeft(job({ rateBytesPerSecond: null }))).toBeNull();
    const status = progressStatus(job());
    expect(status).toMatchObject({
      label: 'Uploading firmware',
      percentText: '30%',
      rateText: '10.0 kB/s',
      timeLeftText: '8 s left',
      tone: 'running',
    });
  });

  it('says a silent link at once instead of a frozen time left (a pulled cable)', () => {
    const silent = progressStatus(job({ silentSeconds: 5 }));
    expect(silent).toMatchObject({
      label: 'No answer from the device for 5 s: check the cable',
      percentText: '30%',
      rateText: '',
      timeLeftText: '',
      tone: 'running',
    });
    expect(secondsLeft(job({ silentSeconds: 7 }))).toBeNull();
    // Answers again: the phase's words and the time left come back.
    expect(progressStatus(job({ silentSeconds: null }))).toMatchObject({
      label: 'Uploading firmware',
      timeLeftText: '8 s left',
    });
  });

  it('states the result when finished, and the reason of a failure', () => {
    expect(progressStatus(job({ phase: 'done', firmwareVersion: '1.1.0', confirmation: 'sent' })).label).toBe(
      'Done: firmware 1.1.0',
    );
    expect(
      progressStatus(
        job({ phase: 'done', action: 'both', firmwareVersion: '1.1.0', syncId: 'abc', confirmation: 'queued' }),
      ).label,
    ).toBe('Done: firmware 1.1.0, configuration applied (confirmation waiting in outbox)');
    const failed = progressStatus(job({ phase: 'failed', resultMessage: 'EPC000101 did not answer' }));
    expect(failed).toMatchObject({
      label: 'Failed: EPC000101 did not answer',
      tone: 'failed',
      percent: null,
      rateText: '',
      timeLeftText: '',
    });
    expect(progressStatus(null)).toMatchObject({ label: 'Idle', tone: 'idle' });
  });

  it('names the coding of a compressed or delta upload beside what it does', () => {
    expect(progressStatus(jobView({ transferCoding: 'compressed, 1.6× faster' }))).toMatchObject({
      label: 'Uploading firmware',
      codingText: 'compressed, 1.6× faster',
      // The codec's name and the exact factor are kept for the tooltip.
      codingDetail: expect.stringMatching(/^deflate \(RFC 1951\).*carries 1\.6 bytes of the image/),
    });
    // In the reader's language: the coding's words and the factor as the locale writes it.
    expect(
      progressStatus(jobView({ transferCoding: 'changes only, 12.0× faster' }), createTranslator('de')),
    ).toMatchObject({
      codingText: 'nur Änderungen, 12,0× schneller',
      codingDetail: expect.stringMatching(/^Delta: .*trägt 12,0 Bytes des Images/),
    });
    expect(
      progressStatus(jobView({ transferCoding: 'compressed, no faster' }), createTranslator('zh')).codingText,
    ).toBe('已压缩，未加快');
    // A text the core did not make so is shown as it came.
    expect(progressStatus(jobView({ transferCoding: 'zstd' }), createTranslator('de')).codingText).toBe('zstd');
    expect(progressStatus(jobView({ transferCoding: null })).codingText).toBe('');
    expect(progressStatus(jobView({ phase: 'applying', transferCoding: 'compressed, 1.6× faster' })).codingText).toBe(
      '',
    );
  });

  it("says the core's coding terms when the view carries them, not its English words read back", () => {
    // Words and terms that disagree show which one the line is made from.
    const job = jobView({
      transferCoding: 'compressed, 1.6× faster',
      transferCodingTerms: { coding: 'delta', factor: 2.5 },
    });
    expect(progressStatus(job, createTranslator('de'))).toMatchObject({
      codingText: 'nur Änderungen, 2,5× schneller',
      codingDetail: expect.stringMatching(/^Delta: .*trägt 2,5 Bytes des Images/),
    });
    expect(
      progressStatus(
        jobView({ transferCoding: 'compressed, no faster', transferCodingTerms: { coding: 'deflate', factor: null } }),
        createTranslator('zh'),
      ).codingText,
    ).toBe('已压缩，未加快');
  });

  it('keeps numbers short and steady', () => {
    expect(rateText(0)).toBe('');
    expect(rateText(11_520)).toBe('11.5 kB/s');
    expect(rateText(2_500_000)).toBe('2.5 MB/s');
    expect(durationText(7)).toBe('7 s');
    expect(durationText(3725)).toBe('1 h 2 min');
  });

  it("sums up the workbench's jobs in one line", () => {
    expect(workbenchSummary([])).toBe('No jobs yet');
    expect(workbenchSummary([job(), job({ phase: 'done' }), job({ phase: 'done' }), job({ phase: 'failed' })])).toBe(
      '1 running, 2 done and 1 failed',
    );
  });
});
