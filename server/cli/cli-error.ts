import { busyRefusal, DataDirBusyError } from '../db/data-dir-lock';

/** A failure the operator can fix: printed as is, without a stack, exit status 1. */
export class CliError extends Error {}

/** Runs work that opens a data directory; a directory another process holds becomes the one-line refusal. */
export async function refusedWhenBusy<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CliError(busyRefusal(error));
    throw error;
  }
}
