#!/usr/bin/env node
// `provisioner`: the CLI (main/hosts/cli/index.ts) run from its TypeScript sources. tsx is registered in
// this process (resolved from this package, not from the current directory), so no build step and
// no second process are needed, and Ctrl-C reaches the CLI directly. tsx is a devDependency: this
// is for the repository; machines without it get the single executable (`npm run build:cli`).
import { register } from 'tsx/esm/api';

register();
await import(new URL('../main/hosts/cli/index.ts', import.meta.url).href);
