import type { ErrorEntry } from './errors';

/** The response envelope of every JSON response of the interface. */
export interface Envelope<T> {
  data: T;
  success: boolean;
  errors: ErrorEntry[] | null;
}

export function ok<T>(data: T): Envelope<T> {
  return { data, success: true, errors: null };
}

export function failed(errors: ErrorEntry[], data: unknown = null): Envelope<unknown> {
  return { data, success: false, errors };
}
