#!/usr/bin/env node
// `npm run build:service`: the service's operator commands and `serve` (server/cli.ts) as a Node
// single-executable application, the start command for production: it needs neither tsx nor any
// other devDependency, nor node_modules (scripts/single-executable.mjs does the work).
//
//   node scripts/build-service.mjs [--out DIR]     into dist/service/ (or DIR)
//
//   dist/service/provisioner-service   server/cli.ts inside a copy of this Node 24
//   dist/service/lib/                  PGlite (its WASM and data files), for the embedded database
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSingleExecutable, runBuildScript } from './single-executable.mjs';

const DEFAULT_OUT_DIR = join(import.meta.dirname, '..', 'dist', 'service');

/** Builds dist/service (or outDir); answers what buildSingleExecutable answers. */
export function buildService({ outDir = DEFAULT_OUT_DIR, quiet = false, strip = false } = {}) {
  return buildSingleExecutable({ entry: 'server/cli.ts', name: 'provisioner-service', outDir, quiet, strip });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runBuildScript(buildService, DEFAULT_OUT_DIR);
