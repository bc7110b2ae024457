/**
 * Every failure the service reports, as one error class with an HTTP status and a stable
 * upper-snake code. Route handlers throw it; the error handler turns it into the envelope.
 */
export interface ErrorEntry {
  code: string;
  message: string;
  field?: string;
}

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly entries: ErrorEntry[],
    /** Extra `data` for a failure (e.g. the reasons a file is unavailable). */
    readonly data: unknown = null,
  ) {
    super(entries.map((entry) => entry.message).join(' '));
    this.name = 'ServiceError';
  }
}

function one(status: number, code: string, message: string, field?: string): ServiceError {
  return new ServiceError(status, [field === undefined ? { code, message } : { code, message, field }]);
}

export const badRequest = (code: string, message: string, field?: string) => one(400, code, message, field);
export const unauthorized = (code: string, message: string) => one(401, code, message);
export const forbidden = (code: string, message: string) => one(403, code, message);
export const notFound = (code: string, message: string, field?: string) => one(404, code, message, field);
export const conflict = (code: string, message: string, field?: string) => one(409, code, message, field);
