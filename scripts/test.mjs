#!/usr/bin/env node
// `npm test`: the whole check CI runs: typecheck, lint, the format check, then every test file.
// `npm test -- ARGS…`: vitest alone with ARGS, e.g. `npm test -- test/main/devices/discovery.test.ts`
// for one file while working on it (typecheck and lint take minutes on a small machine and check
// files the change did not touch).
//
// The Node check comes first and everything else is imported after it (see start.mjs).
import { exitIfNodeTooOld } from './node-runtime.mjs';

exitIfNodeTooOld('npm test');

const { spawnSync } = await import('node:child_process');
const { createRequire } = await import('node:module');
const { dirname, join } = await import('node:path');

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
// The npm that runs this script (npm sets npm_execpath), on this Node.
const npm = process.env.npm_execpath;

/** Runs one step on this Node; a failed step ends the run with its exit code. */
function run(label, args) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (result.error) {
    console.error(`npm test: ${label} could not start: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const args = process.argv.slice(2);
if (args.length > 0) {
  run('vitest', [vitest, 'run', ...args]);
} else {
  if (!npm) {
    console.error(
      'npm test: run it as `npm test` (npm_execpath is unset, so there is no npm to run typecheck and lint with).',
    );
    process.exit(1);
  }
  run('typecheck', [npm, 'run', 'typecheck']);
  run('lint', [npm, 'run', 'lint']);
  run('format check', [npm, 'run', 'format:check']);
  run('vitest', [vitest, 'run']);
}
