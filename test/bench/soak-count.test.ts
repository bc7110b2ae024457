import { describe, expect, it } from 'vitest';
import {
  growth,
  rssWindows,
  tallyConfirmations,
  tallyDevices,
  type StationConfirmation,
  type StoredConfirmation,
} from '../../bench/soak-count';
import { planDevices } from '../../bench/soak-plan';

/** The soak bench's summary, counted from fixed records: what the Station said and what each side holds. */

const hash = (n: number) => n.toString(16).padStart(64, '0');
const made = (n: number, serialNumber: string, action: StationConfirmation['action']): StationConfirmation => ({
  hash: hash(n),
  serialNumber,
  action,
});
const row = (
  serialNumber: string,
  kind: StoredConfirmation['kind'],
  ledgerHash: string | null,
): StoredConfirmation => ({
  serialNumber,
  kind,
  ledgerHash,
  applyTimeStamp: '2026-11-29T02:00:00.000Z',
});

describe('tallyDevices', () => {
  it('counts done, failed, retried, done on retry and unfinished by each device’s last outcome', () => {
    const serials = ['A', 'B', 'C', 'D', 'E'];
    const outcomes = new Map([
      ['A', ['done'] as const],
      ['B', ['failed', 'done'] as const],
      ['C', ['failed', 'failed'] as const],
      ['D', ['in-sync'] as const],
      // E: the Station never said a word of it.
    ]);
    const replugs = new Map([
      ['B', 1],
      ['C', 1],
    ]);
    expect(tallyDevices(serials, outcomes, replugs)).toEqual({
      done: 3,
      failed: 2,
      retried: 2,
      doneOnRetry: 1,
      unfinished: 2,
    });
  });

  it('takes a device done and then failed (a later try that broke it) as not finished', () => {
    expect(tallyDevices(['A'], new Map([['A', ['done', 'failed'] as const]]), new Map())).toMatchObject({
      done: 0,
      unfinished: 1,
      failed: 1,
    });
  });
});

describe('tallyConfirmations', () => {
  it('finds one lost, one doubled and one the Station never made', () => {
    const station = [
      made(1, 'EPC800002', 'firmware-install'),
      made(2, 'EPC800002', 'configuration-apply'),
      made(3, 'SRCP800001', 'firmware-install'),
    ];
    const service = [
      row('EPC800002', 'firmware', hash(1)),
      row('EPC800002', 'configuration', hash(2)),
      row('EPC800002', 'configuration', hash(2)),
      row('SRCP800001', 'configuration', hash(9)),
    ];
    const tally = tallyConfirmations(station, service);
    expect(tally).toMatchObject({ sent: 3, stored: 4, lost: 1, doubled: 1, unknown: 1 });
    expect(tally.unknownByLabel).toEqual({ configuration: 1 });
    expect(tally.lostExamples).toEqual([`SRCP800001 firmware-install ${hash(3).slice(0, 12)}`]);
  });

  it('keys a row without a ledger hash by device, kind and apply time', () => {
    const tally = tallyConfirmations(
      [],
      [row('EPC800002', 'firmware', null), row('EPC800002', 'firmware', null), row('EPC800004', 'firmware', null)],
    );
    expect(tally).toMatchObject({ sent: 0, stored: 3, lost: 0, doubled: 1, unknown: 3 });
    expect(tally.unknownByLabel).toEqual({ 'firmware without ledger hash': 3 });
  });

  it('says nothing is lost or doubled when both sides hold the same', () => {
    const station = [made(1, 'A', 'firmware-install'), made(2, 'A', 'configuration-apply')];
    const service = [row('A', 'firmware', hash(1)), row('A', 'configuration', hash(2))];
    expect(tallyConfirmations(station, service)).toMatchObject({ lost: 0, doubled: 0, unknown: 0 });
  });
});

describe('growth', () => {
  it('is the fraction grown from warm-up to the end, and null without both readings', () => {
    expect(growth(200, 210)).toBe(0.05);
    expect(growth(200, 180)).toBe(-0.1);
    expect(growth(null, 180)).toBeNull();
    expect(growth(0, 180)).toBeNull();
  });
});

describe('rssWindows', () => {
  // A sawtooth of a young generation that grows and is shrunk again, one reading a second.
  const saw = (from: number, to: number, base: number) =>
    Array.from({ length: (to - from) / 1000 + 1 }, (_, i) => ({ at: from + i * 1000, mib: base + (i % 10) * 10 }));

  it('takes the low and the high of the window after warm-up and of the last one, not one reading', () => {
    const samples = [...saw(0, 600_000, 200)];
    const { warm, end } = rssWindows(samples, 100_000, 600_000, 120_000);
    expect(warm).toEqual({ low: 200, high: 290, readings: 121 });
    expect(end).toEqual({ low: 200, high: 290, readings: 121 });
    // The single readings at the two points would say +45 % (200 → 290); the windows, nothing.
    expect(growth(warm!.high, end!.high)).toBe(0);
  });

  it('shows a floor that rises, and keeps the two windows apart when the shift is short', () => {
    const samples = [...saw(0, 99_000, 200), ...saw(100_000, 200_000, 260)];
    const { warm, end } = rssWindows(samples, 50_000, 200_000, 120_000);
    // 75 s each: 50–125 s and 125–200 s.
    expect(warm).toMatchObject({ low: 200, high: 350 });
    expect(end).toMatchObject({ low: 260, high: 350, readings: 76 });
    expect(rssWindows([{ at: 10, mib: null }], 0, 20, 10)).toEqual({ warm: null, end: null });
  });
});

describe('planDevices', () => {
  it('gives 5 % of the devices a pulled cable, alternates the two types, and is the same for the same seed', () => {
    const plan = planDevices(300, 7);
    expect(plan.filter((d) => d.faults.pullAt !== undefined)).toHaveLength(15);
    expect(plan.filter((d) => d.deviceType === 'SRCP')).toHaveLength(150);
    expect(new Set(plan.map((d) => d.serialNumber)).size).toBe(300);
    expect(planDevices(300, 7)).toEqual(plan);
    expect(planDevices(300, 8)).not.toEqual(plan);
  });
});
