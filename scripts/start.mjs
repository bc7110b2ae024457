#!/usr/bin/env node
// `npm start`: builds and starts the desktop app. Where Electron cannot run (no binary and no way
// to fetch it, no display), it says why in one line and starts web mode (`npm run web`) instead,
// which prints the address to open. The decision lives in main/hosts/electron/launcher/ (TypeScript,
// loaded through tsx) so it is tested like the rest of the code.
//
// The Node check comes first and everything else is imported after it: on an older Node the
// imports themselves would fail before a line of this file ran.
import { exitIfNodeTooOld } from './node-runtime.mjs';

exitIfNodeTooOld('npm start');

const { dirname, join } = await import('node:path');
const { fileURLToPath } = await import('node:url');
const { tsImport } = await import('tsx/esm/api');
const { build } = await import('./build.mjs');

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  const { runStart } = await tsImport('../main/hosts/electron/launcher/run-start.ts', import.meta.url);
  process.exitCode = await runStart({
    projectRoot,
    args: process.argv.slice(2),
    build: (target) => build({ target, quiet: true }),
  });
} catch (err) {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
