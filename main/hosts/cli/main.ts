import { CommanderError } from 'commander';
import { CliContext } from './context';
import { CliError, errorLine, EXIT } from './errors';
import type { CliDeps, CliIo } from './io';
import { buildProgram, globalOptions } from './program';
import { chooseCliLanguage, cliTranslator, inCliLanguage } from './cli-language';
import type { CatalogLanguage } from '../../../domain/i18n/index.js';

export interface RunOptions {
  /** Aborted on Ctrl-C: running jobs are cancelled and report so. */
  interrupt?: AbortSignal;
  stdin?: NodeJS.ReadableStream;
}

/**
 * The whole CLI as a function: parse `argv` (without node and script), run the command, print,
 * and answer the exit code. Nothing here calls process.exit, so tests run it in-process with
 * captured streams.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  deps: CliDeps = {},
  options: RunOptions = {},
): Promise<number> {
  let language: CatalogLanguage;
  try {
    language = chooseCliLanguage(argv, io.env);
  } catch (error) {
    // A bad --lang: said in the environment's language (cli-language.ts made the message).
    io.stderr.write(`error: ${errorLine(error)}\n`);
    return error instanceof CliError ? error.exitCode : EXIT.usage;
  }
  return inCliLanguage(language, () => runCliInLanguage(argv, io, deps, options));
}

async function runCliInLanguage(
  argv: readonly string[],
  io: CliIo,
  deps: CliDeps,
  options: RunOptions,
): Promise<number> {
  let exitCode: number = EXIT.ok;
  let context: CliContext | undefined;
  const program = buildProgram(
    async (run) => {
      context = new CliContext(io, deps, globalOptions(program));
      await context.prepare();
      exitCode = await run(context);
    },
    io,
    options.interrupt,
    options.stdin,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const line = errorLine(error, cliTranslator());
    if (context?.out.json) context.out.error(line);
    else io.stderr.write(`error: ${line}\n`);
    return error instanceof CliError ? error.exitCode : EXIT.failed;
  } finally {
    await context?.close();
  }
  return exitCode;
}
