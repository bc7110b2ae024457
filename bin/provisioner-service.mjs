#!/usr/bin/env node
// The service's operator commands (see server/cli.ts), run from the TypeScript sources through tsx
// (a devDependency: this is for the repository) so that no build step is needed. Signals are passed
// on so `serve` stops cleanly.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../server/cli.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', cli, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
