import {
  AuthError,
  CancelledError,
  NetworkError,
  ResponseFormatError,
  ServiceError,
  type ServiceErrorEntry,
} from '../cloud';
import { CoreError, type ErrorCode } from '../../contract/index';
import type { Violation } from '../../domain/violations';

/** The service's error entries as violations the renderer places beside fields. */
export function entriesToViolations(entries: readonly ServiceErrorEntry[]): Violation[] {
  return entries.map((e) => ({ code: e.code, message: e.message, field: typeof e.field === 'string' ? e.field : '' }));
}

/** Any failure of a call to the service, as the CoreError the renderer understands. */
export function toCoreError(err: unknown): CoreError {
  if (err instanceof CoreError) return err;
  if (err instanceof AuthError) {
    return new CoreError(
      err.httpStatus === 403 ? 'NOT_ALLOWED' : 'AUTH_FAILED',
      err.message,
      entriesToViolations(err.errors),
      err.httpStatus,
    );
  }
  if (err instanceof ServiceError) {
    const code: ErrorCode =
      err.httpStatus === 404
        ? 'NOT_FOUND'
        : err.httpStatus === 409
          ? 'CONFLICT'
          : err.httpStatus === 400
            ? 'VALIDATION'
            : 'SERVICE_ERROR';
    return new CoreError(code, err.message, entriesToViolations(err.errors), err.httpStatus);
  }
  if (err instanceof NetworkError) return new CoreError('SERVICE_UNREACHABLE', err.message);
  if (err instanceof ResponseFormatError) return new CoreError('SERVICE_ERROR', err.message, [], err.httpStatus);
  if (err instanceof CancelledError) return new CoreError('INTERNAL', err.message);
  return new CoreError('INTERNAL', err instanceof Error ? err.message : String(err));
}

/** Validation answers (400, 409 with field errors) that a write reports as violations, not as a failure. */
export function violationsOfRefusal(err: unknown): Violation[] | null {
  if (
    err instanceof ServiceError &&
    !(err instanceof AuthError) &&
    (err.httpStatus === 400 || err.httpStatus === 409) &&
    err.errors.length > 0
  ) {
    return entriesToViolations(err.errors);
  }
  return null;
}
