#!/usr/bin/env node
// `provisioner`: the CLI (main/hosts/cli/index.ts) run from its TypeScript sources. tsx is registered in
// this process (resolved from this package, not from the current directory), so no build step and
// no second process are needed, and Ctrl-C reaches the CLI directly.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../main/hosts/cli/index.ts', import.meta.url).href);
