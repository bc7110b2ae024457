import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startService } from '../../server';
import { SEALED_COLUMNS, SealingKeyError } from '../../server/store/sealing';
import { loadServiceSecrets } from '../../server/store/secrets';
import { runInProcess, useOperatorDataDir } from './cli-run';
import { call, POSTGRES_URL, scratchDatabase } from './postgres-cluster';

const newKey = () => randomBytes(32).toString('base64');

/** The sealing key settings of this process, restored after each test (the commands read process.env). */
const SETTINGS = ['PROVISIONER_SEALING_KEY', 'PROVISIONER_SEALING_KEY_FILE', 'PROVISIONER_NEW_SEALING_KEY'] as const;
function withSettings(values: Partial<Record<(typeof SETTINGS)[number], string>>): void {
  for (const name of SETTINGS) {
    if (values[name] === undefined) delete process.env[name];
    else process.env[name] = values[name];
  }
}

describe('secrets at rest: one sealing key, checked at start', () => {
  const operator = useOperatorDataDir('sealing');
  const saved = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));
  afterEach(() => withSettings(saved));
  let adminKey: string;
  beforeAll(async () => {
    withSettings({});
    adminKey = (await runInProcess(['seed-demo', '--data', operator.data])).out.trim();
  });

  it('names every sealed column of the schema, so that a reseal moves them all', async () => {
    const db = await openDatabase({ dataDir: operator.data });
    try {
      const { rows } = await db.query<{ table_name: string; column_name: string }>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type = 'bytea' AND column_name LIKE '%\\_sealed'",
      );
      expect(rows.map((row) => `${row.table_name}.${row.column_name}`).sort()).toEqual(
        SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort(),
      );
    } finally {
      await db.close();
    }
  });

  it('a wrong key is refused at start in one line, not as a 500 on the first listing; reseal moves every secret to a new key', async () => {
    // Set afterwards, as the issue found it: the database keeps its own key.
    withSettings({ PROVISIONER_SEALING_KEY: newKey() });
    const wrong = await runInProcess([
      'key',
      'create',
      '--org',
      'demo',
      '--name',
      'x',
      '--role',
      'Operator',
      '--data',
      operator.data,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).not.toContain('\n');
    expect(wrong.err).toMatch(
      /^The sealing key from PROVISIONER_SEALING_KEY does not open this database's secrets: they are sealed with the key the database keeps itself/,
    );
    const refusedStart = await startService({ dataDir: operator.data, port: 0 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusedStart).toBeInstanceOf(SealingKeyError);

    // Move them: the current key is the database's own, the new one comes from a 0600 file.
    withSettings({});
    const keyFile = join(operator.dir, 'sealing-key');
    const sealing = newKey();
    writeFileSync(keyFile, `${sealing}\n`, { mode: 0o600 });
    let before: string;
    {
      const db = await openDatabase({ dataDir: operator.data });
      before = (await loadServiceSecrets(db, {})).contentHash('the same file content');
      await db.close();
    }
    const resealed = await runInProcess(['secrets', 'reseal', '--new-key-file', keyFile, '--data', operator.data]);
    expect(resealed.code, resealed.err).toBe(0);
    expect(resealed.out).toMatch(/^resealed \d+ secrets\n$/);

    // Without the key now: refused at start, in one line.
    const none = await runInProcess(['signing-key', 'show', '--data', operator.data]);
    expect([none.code, none.err]).toEqual([
      1,
      expect.stringMatching(/^This database's secrets are sealed with a key given from outside, and none is given/),
    ]);
    // With another key: refused too.
    withSettings({ PROVISIONER_SEALING_KEY: newKey() });
    expect((await runInProcess(['signing-key', 'show', '--data', operator.data])).err).toMatch(
      /^The sealing key from PROVISIONER_SEALING_KEY does not open this database's secrets: it is not the key they were sealed with/,
    );

    // With the new key from its file: whole keys list (every sealed key opened), file hashes unchanged.
    withSettings({ PROVISIONER_SEALING_KEY_FILE: keyFile });
    const db = await openDatabase({ dataDir: operator.data });
    try {
      expect((await loadServiceSecrets(db)).contentHash('the same file content')).toBe(before);
    } finally {
      await db.close();
    }
    const service = await startService({ dataDir: operator.data, port: 0 });
    try {
      const listed = await call(service.url, adminKey, 'GET', 'apiKeys?IncludeApiKeys=true&KeyFormat=Visible&Limit=30');
      expect(listed.status).toBe(200);
      expect(listed.json.data.map((k: { key: string }) => k.key)).toContain(adminKey);
    } finally {
      await service.close();
    }
  }, 300_000);

  it('refuses to start on PostgreSQL without a sealing key unless --allow-unsealed, before touching the database', async () => {
    withSettings({});
    // Nothing listens on port 1: the refusal comes before any connection is tried.
    const refused = await runInProcess([
      'serve',
      '--port',
      '0',
      '--database-url',
      'postgres://nobody@127.0.0.1:1/none',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^On PostgreSQL the service needs a sealing key.*--allow-unsealed/);
    expect(refused.err).not.toContain('\n');
  });

  it.skipIf(!POSTGRES_URL)(
    'with --allow-unsealed on PostgreSQL it starts, and warns in its log on every start',
    async () => {
      withSettings({});
      const database = await scratchDatabase();
      try {
        for (let start = 0; start < 2; start++) {
          let log = '';
          const service = await startService({
            databaseUrl: database.url,
            port: 0,
            allowUnsealed: true,
            logStream: { write: (line: string) => (log += line) } as unknown as NodeJS.WritableStream,
          });
          await service.close();
          const warning = log
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as { level: number; security?: { event: string; setting: string } })
            .find((line) => line.security?.setting === 'allow-unsealed');
          expect(warning).toMatchObject({ level: 40, security: { event: 'configuration', setting: 'allow-unsealed' } });
        }
      } finally {
        await database.drop();
      }
    },
  );
});
