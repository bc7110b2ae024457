/**
 * What the benches share: reading a count from the command line and the nearest-rank percentile
 * of timed samples.
 */

/** A whole number of at least `least` from `--name`, or the bench stops with exit code 2 saying what was wrong. */
export function wholeFlag(name: string, text: string, least: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) {
    console.error(`error: --${name} must be a whole number of at least ${least}, got "${text}"`);
    process.exit(2);
  }
  return value;
}

/** A whole number of at least 1 from `--name` (wholeFlag). */
export function positiveFlag(name: string, text: string): number {
  return wholeFlag(name, text, 1);
}

/** The nearest-rank p-th percentile of the samples (NaN for none): p99 of 100 samples is the 99th smallest. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
