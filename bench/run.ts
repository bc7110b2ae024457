import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [-- service links fleet cli-startup cluster] [--flags]`: runs the named benchmarks
 * one after another (all but cluster by default: it needs PostgreSQL and haproxy), each in its own
 * process so one's warm caches and timers don't colour another's figures. Each prints its own
 * figures; flags (e.g. `cluster --json`) go to each benchmark, and the headers to stderr, so that
 * stdout holds only what the benchmarks print.
 */
const BENCHMARKS = [
  'service',
  'links',
  'fleet',
  'cli-startup',
  'cluster',
  'workstation-scale',
  'scale',
  'soak',
  'shift-files',
  'devices-screen',
] as const;
const DEFAULT_BENCHMARKS: readonly Benchmark[] = ['service', 'links', 'fleet', 'cli-startup'];
type Benchmark = (typeof BENCHMARKS)[number];

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith('-'));
const requested = args.filter((arg) => !arg.startsWith('-'));
const unknown = requested.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`error: unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}`);
  process.exit(2);
}
const chosen = (requested.length > 0 ? requested : DEFAULT_BENCHMARKS) as Benchmark[];

let failed = 0;
for (const name of chosen) {
  console.error(`\n=== bench/${name}.ts`);
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script, ...flags], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed += 1;
    console.error(`error: bench/${name}.ts exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
