import { sqlErrorCode, type Database } from './database';
import { MIGRATIONS, type Migration } from './migrations';

/**
 * Serialises every process migrating one database: service instances starting together and
 * `provisioner-service migrate` (any constant works; this one is ours).
 */
export const MIGRATION_LOCK = 7_140_201;

const UNDEFINED_TABLE = '42P01';

/**
 * Brings the schema up to date and returns the versions it applied. One runner holds the
 * migration lock from the first statement to the last; the others wait for it, then find the
 * migrations applied and apply nothing. Each migration commits in its own transaction together
 * with its row in `schema_migrations`, so a runner that dies leaves whole migrations only.
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.withLock(MIGRATION_LOCK, async () => {
    await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied: number[] = [];
    for (const migration of migrations) {
      // The lock was taken before this transaction began, so its snapshot sees every migration
      // that another runner committed while this one waited.
      const done = await db.transaction(async (tx) => {
        const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
        if (existing.rows.length > 0) return false;
        for (const statement of splitStatements(migration.sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        return true;
      });
      if (done) applied.push(migration.version);
    }
    return applied;
  });
}

/** The versions this build knows that the database has not applied (empty when it is up to date). */
export async function pendingMigrations(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const { rows } = await db
    .query<{ version: number }>('SELECT version FROM schema_migrations')
    .catch((error: unknown) => {
      // Before the first migration the table does not exist: everything is pending.
      if (sqlErrorCode(error) === UNDEFINED_TABLE) return { rows: [] as { version: number }[] };
      throw error;
    });
  const done = new Set(rows.map((row) => Number(row.version)));
  return migrations.map((migration) => migration.version).filter((version) => !done.has(version));
}

/**
 * The migrations hold no semicolons inside string literals, so splitting on `;` at line ends is
 * exact, except inside a function body quoted `$fn$ … $fn$`: each such body stays whole.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [''];
  sql.split(/(\$fn\$[\s\S]*?\$fn\$)/).forEach((part, index) => {
    // Odd parts are function bodies: glued to the statement around them.
    if (index % 2 === 1) {
      statements[statements.length - 1] = `${statements.at(-1) ?? ''}${part}`;
      return;
    }
    const pieces = part.split(/;\s*$/m);
    statements[statements.length - 1] = `${statements.at(-1) ?? ''}${pieces[0] ?? ''}`;
    statements.push(...pieces.slice(1));
  });
  return statements
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
