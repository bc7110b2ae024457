import { errorLine } from './errors';

/**
 * The line a person reads when something escaped every handler: an exception thrown where no
 * caller can catch it (the HTTP client's own socket handlers, on an answer it could not parse) or
 * a rejection nobody awaited. Never a stack: what broke, and what to do.
 */
export function lastResortLine(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : undefined;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  if (
    code === 'ERR_ASSERTION' ||
    /undici|node:internal\/deps\/undici/.test(stack) ||
    code?.startsWith('UND_ERR') ||
    code?.startsWith('HPE_')
  ) {
    return `The connection to the service broke: its answer could not be read as HTTP${code ? ` (${code})` : ''}; check the service URL and any proxy in between, or run again later`;
  }
  return `unexpected failure: ${errorLine(error)}`;
}

/**
 * Installs the last resort in the `provisioner` process (not in a process that runs the CLI in
 * itself, such as the tests): one error line, exit code 1.
 */
export function exitOnEscapedErrors(write: (text: string) => void, exit: (code: number) => never): void {
  const leave = (error: unknown): void => {
    write(`error: ${lastResortLine(error)}\n`);
    exit(1);
  };
  process.on('uncaughtException', leave);
  process.on('unhandledRejection', leave);
}
