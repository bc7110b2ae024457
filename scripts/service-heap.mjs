// The V8 heap `serve` runs with unless the operator says otherwise: a young generation of at most
// 16 MB a semi-space (V8's own default here is 64) and an old space of at most 1024 MB (default:
// about 4 GB). Measured with bench/soak-instance.ts: the instance's RSS stays within about 200 MB
// instead of climbing to 400, at a few more collections (docs/performance.md, "Night shift";
// docs/decisions.md, "The service runs with a bounded heap").
//
// A V8 heap flag works only when the process starts, so it is given where `serve` is started: the
// repository's bin/provisioner-service.mjs, the development stack (scripts/stack.ts) and the
// Debian package's unit (NODE_OPTIONS, scripts/dist-linux.mjs). An operator's own NODE_OPTIONS
// wins: a flag it names is not given again (on the command line it would win over NODE_OPTIONS).
//
// Plain JavaScript that any Node runs: bin/provisioner-service.mjs imports it before tsx is loaded.

/** The flags, in the form Node takes them on its command line and in NODE_OPTIONS. */
export const SERVICE_HEAP_FLAGS = Object.freeze(['--max-semi-space-size=16', '--max-old-space-size=1024']);

/** V8 reads `--max-heap-size` as a limit on both spaces; the two flags above take precedence over it. */
const BOTH_SPACES = '--max-heap-size';

/** A flag's name as V8 compares it: V8 takes `_` and `-` alike, and the value after `=` is not the name. */
const flagName = (word) => word.split('=')[0].replaceAll('_', '-');

/**
 * The flags of SERVICE_HEAP_FLAGS that `nodeOptions` (the operator's NODE_OPTIONS) does not set
 * itself: those go on the command line of `serve`. An operator who sets `--max-heap-size` has
 * chosen both spaces' size, so then neither is given.
 */
export function serviceHeapArgs(nodeOptions = '') {
  const named = new Set(
    (nodeOptions ?? '')
      .split(/\s+/)
      .filter((word) => word.startsWith('--'))
      .map(flagName),
  );
  if (named.has(BOTH_SPACES)) return [];
  return SERVICE_HEAP_FLAGS.filter((flag) => !named.has(flagName(flag)));
}

/** The service's options that come before its command and take a value as the next word (server/cli/program.ts). */
const GLOBAL_OPTIONS_WITH_VALUE = new Set(['--data', '--database-url']);

/** Whether the service's command line `args` (what follows the program) runs `serve`. */
export function runsServe(args) {
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (GLOBAL_OPTIONS_WITH_VALUE.has(word)) i++;
    else if (!word.startsWith('-')) return word === 'serve';
  }
  return false;
}
