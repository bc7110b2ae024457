import { CommanderError } from 'commander';
import { buildProgram, CliError } from './cli/program';

/** `npm run server -- <command>`: the operator commands of the service. */
async function main(argv: string[]): Promise<number> {
  const program = buildProgram({
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    waitForStop: () =>
      new Promise((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      }),
  });
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 1;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : error.exitCode || 1;
    if (error instanceof CliError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

// A promise chain rather than top-level await: the single executable (scripts/build-service.mjs)
// runs this bundled as CommonJS, which has no top-level await.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
