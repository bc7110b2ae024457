import { AuthError, CloudError, NetworkError, ServiceError } from '../../cloud/errors';
import { LinkSpecError } from '../../devices';
import { FileFormatError } from '../../../domain/files/file-error';

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

/** One line for any error: what happened, without a stack. */
export function errorLine(error: unknown): string {
  if (error instanceof CliError) return error.message;
  if (error instanceof AuthError) {
    return `the service refused the API key (${error.message}); log in again: provisioner login --url URL --org ORG --api-key KEY`;
  }
  if (error instanceof NetworkError) return `${error.message.replace(/\.$/, '')}; check the service URL and the network, or run again later`;
  if (error instanceof ServiceError || error instanceof CloudError) return error.message.replace(/\.$/, '');
  if (error instanceof FileFormatError || error instanceof LinkSpecError) return error.message.replace(/\.$/, '');
  if (error instanceof Error) return error.message.replace(/\.$/, '');
  return String(error);
}
