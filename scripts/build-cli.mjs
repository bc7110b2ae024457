#!/usr/bin/env node
// `npm run build:cli`: the `provisioner` CLI as a Node single-executable application that runs on a
// machine without Node or node_modules (scripts/single-executable.mjs does the work).
//
//   node scripts/build-cli.mjs [--out DIR]     into dist/cli/ (or DIR)
//
//   dist/cli/provisioner        the CLI (main/hosts/cli/index.ts) inside a copy of this Node 24
//   dist/cli/lib/               native add-ons and PGlite, which must be files on disk
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSingleExecutable, runBuildScript } from './single-executable.mjs';

const DEFAULT_OUT_DIR = join(import.meta.dirname, '..', 'dist', 'cli');

/** Builds dist/cli (or outDir); answers what buildSingleExecutable answers. */
export function buildCli({ outDir = DEFAULT_OUT_DIR, quiet = false, strip = false } = {}) {
  return buildSingleExecutable({ entry: 'main/hosts/cli/index.ts', name: 'provisioner', outDir, quiet, strip });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runBuildScript(buildCli, DEFAULT_OUT_DIR);
