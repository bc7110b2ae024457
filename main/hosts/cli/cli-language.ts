import { AsyncLocalStorage } from 'node:async_hooks';
import {
  createTranslator,
  languageFromEnvironment,
  languageOf,
  LANGUAGES,
  type CatalogLanguage,
  type Translator,
} from '../../../domain/i18n/index.js';
import { CliError, EXIT } from './errors';

/**
 * The language the CLI speaks in one run: `--lang <code>` when given, else the environment
 * (LC_ALL, then LC_MESSAGES, then LANG), else English. It is chosen before the command line is
 * parsed, because the `--help` text commander prints is made from it.
 *
 * Each run keeps its language in an AsyncLocalStorage rather than a module variable: tests run
 * several CLIs in one process, at the same time, in different languages.
 */

const runLanguage = new AsyncLocalStorage<CatalogLanguage>();

/** The option as the program registers it and `--help` shows it. */
export const LANG_FLAGS = '--lang <code>';

/**
 * The value of `--lang` in a command line (`--lang de` or `--lang=de`), or undefined when it is
 * not there. Nothing after `--` is an option. The last one wins, as for any option.
 */
export function langArgument(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '--lang') {
      // A missing value is an empty one: refused below with the choices, as a wrong one is.
      value = argv[i + 1] ?? '';
      i += 1;
    } else if (arg.startsWith('--lang=')) {
      value = arg.slice('--lang='.length);
    }
  }
  return value;
}

/**
 * A `--lang` value as a language: one of the codes (`de`), or a locale name that names one
 * (`de-AT`, `de_DE.UTF-8`). Anything else is a usage error that lists the choices, said in the
 * language of the environment since the one asked for is not known.
 */
export function parseLanguageOption(value: string, fallback: CatalogLanguage): CatalogLanguage {
  const language = languageOf(value);
  if (language !== undefined) return language;
  throw new CliError(
    createTranslator(fallback).t('cli:lang.unknown', { value, choices: LANGUAGES.join(', ') }),
    EXIT.usage,
  );
}

/** The language a command line and its environment ask for; see the module comment. */
export function chooseCliLanguage(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CatalogLanguage {
  const fromEnvironment = languageFromEnvironment(env);
  const asked = langArgument(argv);
  return asked === undefined ? fromEnvironment : parseLanguageOption(asked, fromEnvironment);
}

/** Runs one CLI invocation in a language: cliLanguage() answers it anywhere inside. */
export function inCliLanguage<T>(language: CatalogLanguage, run: () => T): T {
  return runLanguage.run(language, run);
}

/**
 * The language of this CLI run (`--lang`, else LC_ALL / LC_MESSAGES / LANG). Outside a run (a
 * script that imports a command) it is the process environment's.
 */
export function cliLanguage(): CatalogLanguage {
  return runLanguage.getStore() ?? languageFromEnvironment(process.env);
}

/** The translator of this CLI run. */
export function cliTranslator(): Translator {
  return createTranslator(cliLanguage());
}

/**
 * One message in this run's language: `t('cli:lang.option', { choices })`. Named `t` so that the
 * catalog test finds each literal key the CLI asks for (test/domain/i18n/catalogs.test.ts).
 */
export function t(key: string, values?: Parameters<Translator['t']>[1]): string {
  return cliTranslator().t(key, values);
}
