import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [-- service links fleet cli-startup]`: runs the named benchmarks one after another (all of
 * them by default), each in its own process so one's warm caches and timers don't colour another's
 * figures. Each prints its own figures.
 */
const BENCHMARKS = ['service', 'links', 'fleet', 'cli-startup'] as const;
type Benchmark = (typeof BENCHMARKS)[number];

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(BENCHMARKS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`error: unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARKS.join(', ')}`);
  process.exit(2);
}
const chosen = (requested.length > 0 ? requested : BENCHMARKS) as Benchmark[];

let failed = 0;
for (const name of chosen) {
  console.log(`\n=== bench/${name}.ts`);
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed += 1;
    console.error(`error: bench/${name}.ts exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
