/**
 * What can go wrong talking to the service, as classes a caller can branch on: the outbox
 * retries a `NetworkError` or a 5xx `ServiceError`, parks a 4xx one as rejected, and waits for a
 * new login on an `AuthError`.
 */

/** One entry of the envelope's `errors`, kept exactly as the service sent it. */
export interface ServiceErrorEntry {
  code: string;
  message: string;
  field?: string | null;
  [extra: string]: unknown;
}

export interface RequestDescription {
  method: string;
  /** Path with query, without the base URL, e.g. `/v1/organizations/o/devices?limit=30`. */
  path: string;
}

export abstract class CloudError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    message: string,
    readonly request: RequestDescription,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The service answered with a status or an envelope that says the operation failed. */
export class ServiceError extends CloudError {
  override readonly name: string = 'ServiceError';
  readonly retryable: boolean;
  constructor(
    readonly httpStatus: number,
    readonly errors: readonly ServiceErrorEntry[],
    request: RequestDescription,
    message?: string,
    /** From a Retry-After header (429, 503): how long the service asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message ?? describeEntries(httpStatus, errors), request);
    // 408 and 429 are the 4xx that say "try again later"; every 5xx may be transient. So is a 409
    // CONCURRENT_CHANGE: the database refused this request for colliding with others and nothing
    // of it was applied (a Station's first downloads of a shift's files collide so, and a
    // confirmation that met it must wait in the outbox, not be refused).
    this.retryable =
      httpStatus >= 500 ||
      httpStatus === 408 ||
      httpStatus === 429 ||
      (httpStatus === 409 && errors.some((entry) => entry.code === 'CONCURRENT_CHANGE'));
  }

  /** The first entry with this code, if the service sent one. */
  entry(code: string): ServiceErrorEntry | undefined {
    return this.errors.find((e) => e.code === code);
  }
}

/** 401 (missing or unknown key) or 403 (role not allowed, other organization). */
export class AuthError extends ServiceError {
  override readonly name = 'AuthError';
  override readonly retryable = false;
}

export type NetworkFailure = 'unreachable' | 'timeout' | 'connection-lost';

/** No HTTP answer at all: the service is unreachable, the call timed out, or the connection broke. */
export class NetworkError extends CloudError {
  override readonly name = 'NetworkError';
  readonly retryable = true;
  constructor(
    readonly failure: NetworkFailure,
    request: RequestDescription,
    cause?: unknown,
    message?: string,
  ) {
    // The request stays on `request` for the log; the message is read by technicians and names no route.
    super(message ?? `${networkText(failure)}${causeText(cause)}`, request, { cause });
  }
}

/** The service answered 2xx but not with what the interface promises (e.g. a proxy's HTML page). */
export class ResponseFormatError extends CloudError {
  override readonly name = 'ResponseFormatError';
  readonly retryable = false;
  constructor(
    message: string,
    request: RequestDescription,
    readonly httpStatus: number,
    cause?: unknown,
  ) {
    super(message, request, { cause });
  }
}

/** The caller cancelled through its AbortSignal; never retried. */
export class CancelledError extends CloudError {
  override readonly name = 'CancelledError';
  readonly retryable = false;
  constructor(request: RequestDescription, cause?: unknown) {
    super('Cancelled.', request, { cause });
  }
}

function describeEntries(status: number, errors: readonly ServiceErrorEntry[]): string {
  if (errors.length === 0) return `The service answered ${status}.`;
  return errors.map((e) => (e.field ? `${e.message} (${e.field}, ${e.code})` : `${e.message} (${e.code})`)).join('; ');
}

function networkText(failure: NetworkFailure): string {
  switch (failure) {
    case 'timeout':
      return 'The service did not answer in time';
    case 'connection-lost':
      return 'The connection to the service broke';
    case 'unreachable':
      return 'The service is unreachable';
  }
}

function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const code = errorCode(inner) ?? errorCode(cause);
  if (inner?.name === 'HTTPParserError') return `: the answer is not valid HTTP (${code ?? inner.message})`;
  if (code === undefined) return `: ${cause.message}`;
  const words = codeText(code);
  return words ? `: ${words} (${code})` : `: ${code}`;
}

function errorCode(error: Error | undefined): string | undefined {
  return error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * What the HTTP client's codes mean to a person: these come from what a server or a proxy sent
 * (an answer cut short, a Content-Length that does not match, bytes that are not HTTP), never
 * from anything the person did.
 */
function codeText(code: string): string | undefined {
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')
    return 'the connection closed before the whole answer arrived';
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'the answer was not as long as its Content-Length said';
  if (code.startsWith('HPE_')) return 'the answer is not valid HTTP';
  if (code === 'ERR_ASSERTION') return 'the answer could not be read as HTTP';
  return undefined;
}
