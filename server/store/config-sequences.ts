import type { Queryable } from '../db/database';

/**
 * The sequence for a new configuration file: above every sequence issued before, for this device
 * and any other (one service-wide counter, so a device's numbers have gaps). A PostgreSQL sequence
 * hands out each number once, even to concurrent transactions and instances, without waiting or
 * failing to serialize; a transaction that rolls back leaves its number unused, never reissued.
 */
export async function nextConfigFileSequence(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ sequence: string | number }>("SELECT nextval('config_file_sequence') AS sequence");
  return usableSequence(rows[0]?.sequence);
}

/** A sequence as the database returned it (bigint), checked to be a positive safe integer. */
export function usableSequence(value: string | number | undefined): number {
  const sequence = Number(value);
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new Error(`The configuration file sequence ${value} is not usable.`);
  return sequence;
}
