import { keepCreatedFilesPrivate } from '../../../platform/data-dirs';
import { exitOnEscapedErrors } from './last-resort';
import { processIo } from './io';
import { runCli } from './main';

/**
 * `provisioner`: the process around runCli. The first Ctrl-C cancels running jobs (they end and
 * report, an interrupted upload resumes next time); a second one leaves at once.
 */
keepCreatedFilesPrivate();
// Whatever a server sends, the person reads one error line, never a stack (docs/security.md).
exitOnEscapedErrors(
  (text) => process.stderr.write(text),
  (code) => process.exit(code),
);

const interrupt = new AbortController();
let interrupted = 0;
process.on('SIGINT', () => {
  interrupted += 1;
  if (interrupted > 1) process.exit(130);
  process.stderr.write('\nCancelling… (Ctrl-C again to quit at once)\n');
  interrupt.abort(new DOMException('Cancelled with Ctrl-C', 'AbortError'));
});

// A promise chain rather than top-level await: the single executable (scripts/build-cli.mjs) runs
// this bundled as CommonJS, which has no top-level await.
void runCli(process.argv.slice(2), processIo(), {}, { interrupt: interrupt.signal, stdin: process.stdin }).then(
  (code) => {
    // Leave once the output is out: a handle some library left open (a Bluetooth adapter) must not
    // keep a finished command waiting.
    process.stdout.write('', () => process.exit(interrupted > 0 ? 130 : code));
  },
);
