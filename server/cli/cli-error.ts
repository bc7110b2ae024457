import { busyRefusal, DataDirBusyError } from '../db/data-dir-lock';
import { SealingKeyError } from '../store/sealing';

/** A failure the operator can fix: printed as is, without a stack, exit status 1. */
export class CliError extends Error {}

/**
 * Runs work that opens a database: a directory another process holds, or a sealing key that does
 * not open the database's secrets, becomes the one-line refusal.
 */
export async function refusedWhenBusy<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CliError(busyRefusal(error));
    if (error instanceof SealingKeyError) throw new CliError(error.message);
    throw error;
  }
}
