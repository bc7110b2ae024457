#!/usr/bin/env node
// The service's operator commands (see server/cli.ts), run from the TypeScript sources through tsx
// (a devDependency: this is for the repository) so that no build step is needed. Signals are passed
// on so `serve` stops cleanly. `serve` gets the bounded heap of scripts/service-heap.mjs, unless
// the operator's NODE_OPTIONS sets those flags itself.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runsServe, serviceHeapArgs } from '../scripts/service-heap.mjs';

const cli = fileURLToPath(new URL('../server/cli.ts', import.meta.url));
const args = process.argv.slice(2);
const heap = runsServe(args) ? serviceHeapArgs(process.env.NODE_OPTIONS) : [];
const child = spawn(process.execPath, [...heap, '--import', 'tsx', cli, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
