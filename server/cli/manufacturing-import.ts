import { createReadStream } from 'node:fs';
import type { Queryable } from '../db/database';
import type { ManufacturingRecord } from '../store/manufacturing';
import { headerProblem, parseRecordLine } from './csv';

/** Lines written per statement: large enough that a 100,000-line file is 100 round trips. */
export const IMPORT_BATCH = 1000;
/** Bad lines named in the error; the rest are counted. */
const ERRORS_NAMED = 50;

export class ImportRefused extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.join('\n'));
  }
}

/**
 * Streams a manufacturing-records CSV into the database in batches, inside the caller's one
 * transaction: memory holds one batch, whatever the file's length. Every line is read; when any is
 * wrong, ImportRefused names them (by line number) and the caller's transaction rolls back what
 * the batches before wrote. Serial numbers seen earlier in the file are remembered in a temporary
 * table of the transaction, not in memory, to name a line that repeats one.
 *
 * The file is opened here, not by the caller: a transaction retried after a serialization
 * failure runs this again from the first line.
 */
export async function importManufacturingCsv(
  tx: Queryable,
  file: string,
): Promise<{ inserted: number; updated: number; lines: number }> {
  await tx.query(
    'CREATE TEMPORARY TABLE import_seen (serial_number text PRIMARY KEY, line integer NOT NULL) ON COMMIT DROP',
  );
  const errors: string[] = [];
  let errorCount = 0;
  const refuse = (error: string) => {
    errorCount += 1;
    if (errors.length < ERRORS_NAMED) errors.push(error);
  };
  let batch: { record: ManufacturingRecord; line: number }[] = [];
  const totals = { inserted: 0, updated: 0, lines: 0 };
  const flush = async () => {
    const written = await writeBatch(tx, batch, refuse, errorCount === 0);
    totals.inserted += written.inserted;
    totals.updated += written.updated;
    batch = [];
  };

  for await (const line of linesOf(file)) {
    totals.lines += 1;
    if (totals.lines === 1) {
      const problem = headerProblem(line);
      if (problem) throw new ImportRefused([problem]);
      continue;
    }
    const parsed = parseRecordLine(line, totals.lines);
    if (!parsed) continue;
    if ('error' in parsed) refuse(parsed.error);
    else batch.push({ record: parsed.record, line: totals.lines });
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  if (totals.lines === 0) throw new ImportRefused([headerProblem('') ?? 'line 1: the file is empty']);
  if (errorCount > 0) {
    const more = errorCount - errors.length;
    throw new ImportRefused(more > 0 ? [...errors, `… and ${more} more bad lines`] : errors);
  }
  return totals;
}

/**
 * The file's lines (without their \n or \r\n), read a chunk at a time as they are consumed: the
 * stream's async iterator asks for the next chunk only when the lines of this one are taken, so a
 * slow database holds the file back instead of its lines piling up in memory (node:readline's
 * iterator queued them: the import's peak RSS grew with the file).
 */
export async function* linesOf(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 })) {
    const lines = `${rest}${chunk as string}`.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
  }
  if (rest !== '') yield rest.endsWith('\r') ? rest.slice(0, -1) : rest;
}

/**
 * Names lines whose serial number came earlier in the file, then writes the batch, unless a bad
 * line was already found: from then on lines are only checked, as nothing will be kept.
 */
async function writeBatch(
  tx: Queryable,
  batch: readonly { record: ManufacturingRecord; line: number }[],
  refuse: (error: string) => void,
  write: boolean,
): Promise<{ inserted: number; updated: number }> {
  const serials = batch.map((entry) => entry.record.serialNumber);
  const earlier = new Map<string, number>();
  const { rows: seen } = await tx.query<{ serial_number: string; line: number }>(
    'SELECT serial_number, line FROM import_seen WHERE serial_number = ANY($1::text[])',
    [serials],
  );
  for (const row of seen) earlier.set(row.serial_number, row.line);
  const fresh: { record: ManufacturingRecord; line: number }[] = [];
  for (const entry of batch) {
    const first = earlier.get(entry.record.serialNumber);
    if (first !== undefined) {
      refuse(`line ${entry.line}: serial number ${entry.record.serialNumber} is already on line ${first}`);
      continue;
    }
    earlier.set(entry.record.serialNumber, entry.line);
    fresh.push(entry);
  }
  await tx.query('INSERT INTO import_seen (serial_number, line) SELECT * FROM unnest($1::text[], $2::int[])', [
    fresh.map((entry) => entry.record.serialNumber),
    fresh.map((entry) => entry.line),
  ]);
  if (!write || fresh.length < batch.length) return { inserted: 0, updated: 0 };
  const { rows } = await tx.query<{ inserted: number }>(
    `WITH written AS (
       INSERT INTO manufacturing_records (serial_number, device_type, model)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
       ON CONFLICT (serial_number) DO UPDATE SET device_type = EXCLUDED.device_type, model = EXCLUDED.model
       RETURNING (xmax = 0) AS inserted)
     SELECT count(*) FILTER (WHERE inserted)::int AS inserted FROM written`,
    [serials, batch.map((entry) => entry.record.deviceType), batch.map((entry) => entry.record.model)],
  );
  const inserted = rows[0]?.inserted ?? 0;
  return { inserted, updated: batch.length - inserted };
}
