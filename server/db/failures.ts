import { ServiceError } from '../http/errors';
import { sqlErrorCode } from './database';

/**
 * What a request meets when the database server is away (restarting, failing over) or its
 * transaction kept colliding with others. Both are ServiceErrors so that every caller, the HTTP
 * error handler first, reports them as the client's cue to try again, not as the service's fault.
 */

/**
 * The transaction was retried as often as it may be and still met concurrent changes: nothing of
 * it was applied.
 */
export class TransactionConflictError extends ServiceError {
  constructor(attempts: number, cause: unknown) {
    super(409, [
      {
        code: 'CONCURRENT_CHANGE',
        message: `Other requests changed the same data at the same time (${attempts} attempts): nothing was changed. Read it again and retry.`,
      },
    ]);
    this.name = 'TransactionConflictError';
    this.cause = cause;
  }
}

/** No connection to the database server could be made or kept: the service is not ready. */
export class DatabaseUnavailableError extends ServiceError {
  constructor(cause: unknown) {
    super(503, [
      {
        code: 'DATABASE_UNAVAILABLE',
        message:
          'The service cannot reach its database just now. Retry shortly; a change sent with this request may or may not have been applied, so read before repeating one that is not idempotent.',
      },
    ]);
    this.name = 'DatabaseUnavailableError';
    this.cause = cause;
  }
}

/** Node's socket errors, as `pg` passes them on. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server that is stopping or starting: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SHUTDOWN_CODES = new Set(['57P01', '57P02', '57P03']);
/** `pg`'s own messages when a connection ends or cannot be had in time (they carry no code). */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error/,
  /Connection ended/,
];

/** Whether `error` says the connection to the server failed, rather than anything about the query. */
export function isConnectionFailure(error: unknown): boolean {
  const code = sqlErrorCode(error);
  if (code !== undefined && (SOCKET_CODES.has(code) || SHUTDOWN_CODES.has(code) || code.startsWith('08'))) return true;
  const message = error instanceof Error ? error.message : '';
  return DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}
