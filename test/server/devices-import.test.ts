import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server';
import { IMPORT_BATCH } from '../../server/cli/manufacturing-import';
import { runInProcess, useOperatorDataDir } from './cli-run';

/**
 * `devices import` streams the file in batches inside one transaction: a bad line anywhere, even
 * batches after the first were written, leaves nothing of the file behind and is named by its line.
 */
const LINES = IMPORT_BATCH * 3 + 417;
const serialOf = (i: number) => `IMP${String(i).padStart(6, '0')}`;

function csv(lines: number, replace: (line: number) => string | undefined = () => undefined): string {
  const rows = ['serialNumber,deviceType,model'];
  // Line numbers as an editor shows them: the header is line 1, device i is on line i + 1.
  for (let i = 1; i <= lines; i++)
    rows.push(replace(i + 1) ?? `${serialOf(i)},${['EPC', 'NSCP', 'SRCP', 'WESP'][i % 4]},Model ${i % 9}`);
  return `${rows.join('\n')}\n`;
}

async function importedCount(data: string): Promise<number> {
  const db = await openDatabase({ dataDir: data });
  try {
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM manufacturing_records WHERE serial_number LIKE 'IMP%'",
    );
    return rows[0]!.n;
  } finally {
    await db.close();
  }
}

describe('devices import', () => {
  const operator = useOperatorDataDir('devices-import');

  it('rolls back every batch when a line deep in the file is bad, and names that line', async () => {
    const badLine = IMPORT_BATCH * 2 + 123;
    const file = join(operator.dir, 'bad-deep.csv');
    writeFileSync(
      file,
      csv(LINES, (line) => (line === badLine ? `${serialOf(line)},TOASTER,T-1` : undefined)),
    );
    const refused = await runInProcess(['devices', 'import', file, '--data', operator.data]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('nothing imported');
    expect(refused.err).toContain(`line ${badLine}: device type "TOASTER"`);
    expect(refused.err.match(/line \d+:/g)).toEqual([`line ${badLine}:`]);
    expect(await importedCount(operator.data)).toBe(0);
  });

  it('names a serial number repeated in a later batch with both lines', async () => {
    const repeatAt = IMPORT_BATCH * 3 + 5;
    const file = join(operator.dir, 'repeat.csv');
    // Line 11 holds device 10's serial; the line repeating it comes batches later.
    writeFileSync(
      file,
      csv(LINES, (line) => (line === repeatAt ? `${serialOf(10)},EPC,again` : undefined)),
    );
    const refused = await runInProcess(['devices', 'import', file, '--data', operator.data]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`line ${repeatAt}: serial number ${serialOf(10)} is already on line 11`);
    expect(await importedCount(operator.data)).toBe(0);
  });

  it('imports the whole file in batches, then updates it when imported again', async () => {
    const file = join(operator.dir, 'good.csv');
    writeFileSync(file, csv(LINES));
    expect(await runInProcess(['devices', 'import', file, '--data', operator.data])).toMatchObject({
      code: 0,
      out: `imported ${LINES} manufacturing records (${LINES} new, 0 updated)\n`,
    });
    expect(await importedCount(operator.data)).toBe(LINES);
    expect((await runInProcess(['devices', 'import', file, '--data', operator.data])).out).toBe(
      `imported ${LINES} manufacturing records (0 new, ${LINES} updated)\n`,
    );
  });

  it('refuses a wrong header and an empty file', async () => {
    const header = join(operator.dir, 'header.csv');
    writeFileSync(header, 'serial,type,model\nIMPX1,EPC,M\n');
    expect((await runInProcess(['devices', 'import', header, '--data', operator.data])).err).toMatch(
      /line 1: the header must be exactly "serialNumber,deviceType,model"/,
    );
    const empty = join(operator.dir, 'empty.csv');
    writeFileSync(empty, '');
    expect((await runInProcess(['devices', 'import', empty, '--data', operator.data])).err).toMatch(
      /line 1: the header must be exactly/,
    );
  });
});
