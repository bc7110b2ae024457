import type { ServiceError } from './errors';

/** What the store found, or the error that says what is missing (a 404 made by `missing`). */
export async function foundOr<T>(lookup: Promise<T | null | undefined>, missing: () => ServiceError): Promise<T> {
  const found = await lookup;
  if (found === null || found === undefined) throw missing();
  return found;
}
