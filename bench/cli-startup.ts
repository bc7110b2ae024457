/**
 * CLI start-up benchmark (`npm run bench -- cli-startup`): wall time of `provisioner --help` as the
 * single executable (scripts/build-cli.mjs, built here into a temporary folder) beside
 * `tsx main/hosts/cli/index.ts --help` (what `npm run cli` runs), each a fresh process. The two
 * are measured in turns, the order alternating, so load from other work falls on both alike.
 * Prints the medians and their ratio; the target is at most a third.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_RATIO = 1 / 3;

const root = join(import.meta.dirname, '..');

interface Contender {
  name: string;
  command: string;
  args: string[];
}

/** Wall time of one run, from spawning to exit, in milliseconds; a failed run stops the benchmark. */
function timeOnce({ name, command, args }: Contender): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd: root, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (run.status !== 0 || !run.stdout.startsWith('Usage: provisioner')) {
    throw new Error(`${name} failed (${run.status ?? run.signal}): ${run.stderr}`);
  }
  return elapsed;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function main(): void {
  const build = mkdtempSync(join(tmpdir(), 'provisioner-bench-cli-'));
  try {
    const out = join(build, 'cli');
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--out', out], {
      cwd: root,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`build:cli failed: ${built.stderr}`);
    const contenders: Contender[] = [
      { name: 'single executable', command: join(out, 'provisioner'), args: ['--help'] },
      {
        name: 'tsx main/hosts/cli/index.ts',
        command: join(root, 'node_modules', '.bin', 'tsx'),
        args: ['main/hosts/cli/index.ts', '--help'],
      },
    ];
    // One run each first: the file cache holds both, as it would for someone who uses the CLI daily.
    for (const contender of contenders) timeOnce(contender);
    const times = contenders.map(() => [] as number[]);
    for (let run = 0; run < RUNS; run += 1) {
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const index of order) times[index]!.push(timeOnce(contenders[index]!));
    }
    const medians = times.map(median);
    console.log(`provisioner --help, ${RUNS} runs each, interleaved (Node ${process.version}):\n`);
    console.log('| how | median | fastest | slowest |');
    console.log('|---|---|---|---|');
    contenders.forEach((contender, index) => {
      const own = times[index]!;
      console.log(
        `| ${contender.name} | ${medians[index]!.toFixed(0)} ms | ${Math.min(...own).toFixed(0)} ms | ${Math.max(...own).toFixed(0)} ms |`,
      );
    });
    const ratio = medians[0]! / medians[1]!;
    console.log(
      `\nratio single executable / tsx: ${ratio.toFixed(2)} (target at most ${TARGET_RATIO.toFixed(2)}: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})`,
    );
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

main();
