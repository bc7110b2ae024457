import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, seedDemo } from '../../server';
import { createOrganization, getOrganization } from '../../server/store/organizations';
import { modesUnder } from '../fixtures/file-modes';
import { runInProcess } from './cli-run';
import { pgliteTemplate } from './harness';
import { POSTGRES_URL, scratchDatabase, type ScratchDatabase } from './postgres-cluster';

/** backup, then a change, then restore: the change is gone and what was backed up reads back. */
async function roundTrip(
  storage: string[],
  file: string,
  open: () => ReturnType<typeof openDatabase>,
  afterRestore: () => Promise<void> = async () => undefined,
): Promise<string> {
  let db = await open();
  await createOrganization(db, { id: 'kept', name: 'Kept', region: 'EU' });
  await db.close();

  const backup = await runInProcess([...storage, 'backup', '--out', file]);
  expect(backup).toMatchObject({ code: 0, out: `wrote ${file}\n` });

  db = await open();
  await createOrganization(db, { id: 'after-backup', name: 'After', region: 'NA' });
  await db.close();

  const restore = await runInProcess([...storage, 'restore', file]);
  expect(restore.code, restore.err).toBe(0);
  await afterRestore();
  db = await open();
  try {
    expect(await getOrganization(db, 'kept')).toMatchObject({ name: 'Kept', region: 'EU' });
    expect(await getOrganization(db, 'after-backup')).toBeUndefined();
    // The demo organization and its key came back with the rest.
    expect((await seedDemo(db)).orgId).toBe('demo');
  } finally {
    await db.close();
  }
  return restore.err;
}

describe('backup and restore', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'provisioner-backup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('on PGlite: a dump of the data directory, restored beside the old one', async () => {
    const data = join(dir, 'service');
    const seeded = await openDatabase({ dataDir: data, pgliteTemplate: await pgliteTemplate() });
    await seeded.close();
    const file = join(dir, 'pglite.backup');
    // What restore leaves is checked before anything opens the directory again (open narrows modes itself).
    const said = await roundTrip(
      ['--data', data],
      file,
      () => openDatabase({ dataDir: data }),
      async () => {
        expect(await modesUnder(data)).toEqual({ dirs: [0o700], files: [0o600] });
      },
    );
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const kept = /kept at (\S+)\n/.exec(said)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    // PGlite starts five times here (each open, the dump, the load): more room than one test usually needs.
  }, 180_000);

  it('refuses a file that is no backup, and a backup of the other kind, changing nothing', async () => {
    const data = join(dir, 'service');
    const notBackup = await runInProcess(['--data', data, 'restore', join(dir, 'missing.backup')]);
    expect([notBackup.code, notBackup.err]).toEqual([1, expect.stringMatching(/Cannot read/)]);
    const wrongKind = await runInProcess([
      '--database-url',
      'postgres://nobody@127.0.0.1:1/none',
      'restore',
      join(dir, 'pglite.backup'),
    ]);
    expect([wrongKind.code, wrongKind.err]).toEqual([
      1,
      expect.stringMatching(/is not a pg_dump archive \(it is a PGlite backup/),
    ]);
  });

  describe.skipIf(!POSTGRES_URL)('on PostgreSQL (needs TEST_DATABASE_URL; .ci/run starts a server)', () => {
    let database: ScratchDatabase;
    beforeAll(async () => {
      database = await scratchDatabase();
      const db = await openDatabase({ databaseUrl: database.url });
      await seedDemo(db);
      await db.close();
    });
    afterAll(() => database?.drop());

    it('pg_dump, then pg_restore in one transaction', async () => {
      const file = join(dir, 'postgres.backup');
      await roundTrip(['--database-url', database.url], file, () => openDatabase({ databaseUrl: database.url }));
      expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('PGDMP');
      // It holds every sealed secret: the user's alone, as the PGlite one is.
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
  });
});
