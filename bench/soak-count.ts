/**
 * The soak bench's figures (bench/soak.ts), counted from records alone: what the Station reported
 * of each device, and the confirmations on each side. No I/O here, so the counting is tested on
 * fixed records (test/bench/soak-count.test.ts).
 */

/** What the Station said of one device, in order: one entry per outcome event. */
export type DeviceOutcome = 'done' | 'in-sync' | 'failed';

export interface DeviceTally {
  /** Devices whose last outcome is done (or found in sync, verified): finished. */
  done: number;
  /** Devices that failed at least once. */
  failed: number;
  /** Devices plugged in again after a failure. */
  retried: number;
  /** Devices that failed at least once and were done on a later try. */
  doneOnRetry: number;
  /** Devices whose last outcome is not done: failed for good, or never finished. */
  unfinished: number;
}

/**
 * Per device: its outcomes in the order the Station reported them, and how many times it was
 * plugged in again after a failure. Devices with no outcome at all count as unfinished.
 */
export function tallyDevices(
  serials: readonly string[],
  outcomes: ReadonlyMap<string, readonly DeviceOutcome[]>,
  replugs: ReadonlyMap<string, number>,
): DeviceTally {
  const tally: DeviceTally = { done: 0, failed: 0, retried: 0, doneOnRetry: 0, unfinished: 0 };
  for (const serial of serials) {
    const seen = outcomes.get(serial) ?? [];
    const last = seen.at(-1);
    const finished = last === 'done' || last === 'in-sync';
    const everFailed = seen.includes('failed');
    if (finished) tally.done += 1;
    else tally.unfinished += 1;
    if (everFailed) tally.failed += 1;
    if ((replugs.get(serial) ?? 0) > 0) tally.retried += 1;
    if (everFailed && finished) tally.doneOnRetry += 1;
  }
  return tally;
}

/** A confirmation the Station made: the ledger entry it carries (confirm.ts records the entry first). */
export interface StationConfirmation {
  hash: string;
  serialNumber: string;
  action: 'firmware-install' | 'configuration-apply';
}

/** A confirmation the service stored: the ledger hash its payload carries, when it carries one. */
export interface StoredConfirmation {
  serialNumber: string;
  kind: 'firmware' | 'configuration';
  ledgerHash: string | null;
  applyTimeStamp: string | null;
  /** What the row says of itself, for the unknown ones: e.g. "firmware job-result failure". */
  label?: string;
}

export interface ConfirmationTally {
  sent: number;
  stored: number;
  /** Made by the Station (in its ledger), not on the service. */
  lost: number;
  /** Stored more than once: rows beyond the first of one ledger entry (or of one device, kind and apply time). */
  doubled: number;
  /** Stored rows no ledger entry of the Station names. */
  unknown: number;
  /** Those rows by their label (kind, reason, outcome; "without ledger hash" when they carry none). */
  unknownByLabel: Record<string, number>;
  /** Up to ten of the lost entries' serial numbers and actions, to look into. */
  lostExamples: string[];
}

const ACTION_OF_KIND = { firmware: 'firmware-install', configuration: 'configuration-apply' } as const;

/**
 * The Station's confirmations against the service's rows. A row is keyed by the ledger hash it
 * carries; one without (a ledger that could not record) by device, kind and apply time.
 */
export function tallyConfirmations(
  made: readonly StationConfirmation[],
  stored: readonly StoredConfirmation[],
): ConfirmationTally {
  const rowsByKey = new Map<string, number>();
  for (const row of stored) {
    const key = row.ledgerHash ?? `${row.serialNumber}/${ACTION_OF_KIND[row.kind]}/${row.applyTimeStamp ?? '?'}`;
    rowsByKey.set(key, (rowsByKey.get(key) ?? 0) + 1);
  }
  const madeHashes = new Set(made.map((confirmation) => confirmation.hash));
  const lostOnes = made.filter((confirmation) => !rowsByKey.has(confirmation.hash));
  let doubled = 0;
  for (const rows of rowsByKey.values()) doubled += rows - 1;
  const unknownByLabel: Record<string, number> = {};
  let unknown = 0;
  for (const row of stored) {
    if (row.ledgerHash !== null && madeHashes.has(row.ledgerHash)) continue;
    unknown += 1;
    const label = `${row.label ?? row.kind}${row.ledgerHash === null ? ' without ledger hash' : ''}`;
    unknownByLabel[label] = (unknownByLabel[label] ?? 0) + 1;
  }
  return {
    sent: made.length,
    stored: stored.length,
    lost: lostOnes.length,
    doubled,
    unknown,
    unknownByLabel,
    lostExamples: lostOnes.slice(0, 10).map((c) => `${c.serialNumber} ${c.action} ${c.hash.slice(0, 12)}`),
  };
}

/** Growth from `warm` to `end` as a fraction (0.05 is 5 %), rounded to 3 places; null without both. */
export function growth(warm: number | null, end: number | null): number | null {
  if (warm === null || end === null || warm <= 0) return null;
  return Math.round(((end - warm) / warm) * 1000) / 1000;
}

/** One reading of a process's resident memory: when (ms, the bench's clock) and MiB (null when it was gone). */
export interface RssSample {
  at: number;
  mib: number | null;
}

/** The lowest and the highest reading of a window, and how many there were. */
export interface RssWindow {
  low: number;
  high: number;
  readings: number;
}

/**
 * A process's RSS after warm-up and at the end, each over a window of `windowMs` (the first after
 * `warmAt`, the last before `endAt`; half the time between them each when that is shorter, so they
 * never overlap). One reading is not a measure of a Node process: its young generation grows and
 * shrinks by tens of MiB within seconds as the collector sizes it, so a single reading lands
 * anywhere on that swing. The highs (and the lows) of two windows compare like with like.
 */
export function rssWindows(
  samples: readonly RssSample[],
  warmAt: number,
  endAt: number,
  windowMs: number,
): { warm: RssWindow | null; end: RssWindow | null } {
  const span = Math.max(0, Math.min(windowMs, (endAt - warmAt) / 2));
  const within = (from: number, to: number): RssWindow | null => {
    const readings = samples.filter((s) => s.at >= from && s.at <= to && s.mib !== null).map((s) => s.mib!);
    if (readings.length === 0) return null;
    return { low: Math.min(...readings), high: Math.max(...readings), readings: readings.length };
  };
  return { warm: within(warmAt, warmAt + span), end: within(endAt - span, endAt) };
}
