import { AuthError, CloudError, NetworkError, ServiceError } from '../../cloud/errors';
import { LinkSpecError } from '../../devices';
import { FileFormatError } from '../../../domain/files/file-error';
import { catalogueEntry, errorAdvice, errorTexts } from '../../../domain/job-errors';
import { createTranslator, SOURCE_LANGUAGE, type Translator } from '../../../domain/i18n/index.js';

/** A failure the CLI reports as one line and an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const EXIT = {
  ok: 0,
  /** A command or at least one device failed. */
  failed: 1,
  /** The command line was wrong. */
  usage: 2,
} as const;

/**
 * One line for any error: what happened, without a stack, in the translator's language (English
 * by default). The English lines are the source and name every detail the error carries; in
 * another language an error with a code the catalogue knows (docs/errors.md) is said with the
 * catalogue's words and the code, and one without a code keeps its own (English) message.
 */
export function errorLine(error: unknown, translator: Translator = createTranslator(SOURCE_LANGUAGE)): string {
  const english = translator.language === SOURCE_LANGUAGE;
  if (error instanceof CliError) return error.message;
  if (error instanceof AuthError) {
    const code = error.errors[0]?.code;
    const translated = !english && code !== undefined ? errorTexts(code, translator)?.what : undefined;
    return translator.t('cli:error.authRefused', { reason: translated ?? error.message });
  }
  if (error instanceof NetworkError) {
    const reason = english
      ? error.message.replace(/\.$/, '')
      : translator.t('cli:error.networkFailure', { failure: error.failure });
    return translator.t('cli:error.network', { reason });
  }
  if (!english) {
    const code = errorCodeOf(error);
    const advice = code !== undefined ? errorAdvice(code, translator) : null;
    if (code !== undefined && advice !== null) return translator.t('cli:error.coded', { advice, code });
  }
  if (error instanceof ServiceError || error instanceof CloudError) return error.message.replace(/\.$/, '');
  if (error instanceof FileFormatError || error instanceof LinkSpecError) return error.message.replace(/\.$/, '');
  if (error instanceof Error) return error.message.replace(/\.$/, '');
  return String(error);
}

/** The catalogue code an error carries: the service's first error code, a file's code, or any `code` the catalogue knows. */
function errorCodeOf(error: unknown): string | undefined {
  if (error instanceof ServiceError) return error.errors[0]?.code;
  if (error instanceof FileFormatError) return error.code;
  if (error instanceof Error && 'code' in error && typeof error.code === 'string' && catalogueEntry(error.code))
    return error.code;
  return undefined;
}
