import type { Violation } from '../domain/violations';
import type { WorkPackageRefusal } from '../domain/work-package-refusal';

export const ERROR_CODES = [
  'INVALID_INPUT',
  'UNKNOWN_CHANNEL',
  'NOT_SIGNED_IN',
  'NOT_ALLOWED',
  'AUTH_FAILED',
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION',
  'SERVICE_UNREACHABLE',
  'SERVICE_ERROR',
  'DEVICE_ERROR',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error as it crosses the boundary: plain data (Electron IPC and JSON drop class and fields of Errors). */
export interface WireError {
  code: ErrorCode;
  message: string;
  /** The service's violations (or the input schema's), each beside its field. */
  violations: Violation[];
  httpStatus: number | null;
  /** Why a work package cannot be made, as a code and its values: the screen says it in the reader's language. */
  workPackageRefusal?: WorkPackageRefusal;
}

export type InvokeOutcome<R> = { ok: true; value: R } | { ok: false; error: WireError };

/** Thrown by the core; turned into a `WireError` by `toWireError`. */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly violations: Violation[] = [],
    readonly httpStatus: number | null = null,
    /** See WireError.workPackageRefusal; `message` is its English. */
    readonly workPackageRefusal?: WorkPackageRefusal,
  ) {
    super(message);
  }
}

export function toWireError(err: unknown): WireError {
  if (err instanceof CoreError) {
    return {
      code: err.code,
      message: err.message,
      violations: err.violations,
      httpStatus: err.httpStatus,
      ...(err.workPackageRefusal ? { workPackageRefusal: err.workPackageRefusal } : {}),
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message, violations: [], httpStatus: null };
}
