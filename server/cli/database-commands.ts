import type { Command } from 'commander';
import { backupDatabase, BackupError, restoreDatabase, type BackupTarget } from '../db/backup';
import { migrate } from '../db/migrate';
import { openPglite } from '../db/pglite';
import { openPostgres } from '../db/postgres';
import { ensureSearchIndexes } from '../db/search-indexes';
import { CliError, refusedWhenBusy } from './cli-error';
import type { SecurityEventSink } from './security-log';

/** What the database commands need of the program around them. */
export interface DatabaseCommandContext {
  out: (text: string) => void;
  err: (text: string) => void;
  security: SecurityEventSink;
  /** The database the global options name (--database-url wins over --data). */
  target: () => BackupTarget;
}

/** migrate, backup and restore: the commands that work on the database as a whole. */
export function addDatabaseCommands(program: Command, ctx: DatabaseCommandContext): void {
  program
    .command('migrate')
    .description(
      'Apply the migrations this version knows, then exit. Safe beside starting instances: one runner applies them, the others wait and find them applied.',
    )
    .action(async () => {
      const target = ctx.target();
      // Opened without openDatabase, which would migrate before this command could report it.
      const db =
        target.kind === 'postgres'
          ? await openPostgres(target.databaseUrl)
          : await refusedWhenBusy(() => openPglite(target.dataDir));
      try {
        const applied = await migrate(db);
        ctx.out(applied.length > 0 ? `applied migrations ${applied.join(', ')}\n` : 'the schema is up to date\n');
        const missing = await ensureSearchIndexes(db);
        if (missing) ctx.err(`warning: ${missing.fix} (${missing.reason})\n`);
      } finally {
        await db.close();
      }
    });

  program
    .command('backup')
    .description(
      'Write a backup of the whole database to a file: a PGlite data directory dump, or a pg_dump archive for PostgreSQL.',
    )
    .requiredOption('--out <file>', 'where to write the backup')
    .action(async (options: { out: string }) => {
      await reported(() => backupDatabase(ctx.target(), options.out));
      ctx.security({ event: 'backup', target: described(ctx.target()), file: options.out }, 'database backed up');
      ctx.out(`wrote ${options.out}\n`);
    });

  program
    .command('restore')
    .argument('<file>', 'a backup written by the backup command')
    .description(
      'Replace the database with a backup. Stop the service first. PGlite: the current data directory is kept beside it; PostgreSQL: applied in one transaction.',
    )
    .action(async (file: string) => {
      const { previous } = await reported(() => restoreDatabase(ctx.target(), file));
      ctx.security({ event: 'restore', target: described(ctx.target()), file }, 'database restored');
      if (previous) ctx.err(`the data directory as it was is kept at ${previous}\n`);
      ctx.out(`restored ${file}\n`);
    });
}

/** The database a backup or restore was of, for the log: a PGlite directory, or PostgreSQL's address without its password. */
function described(target: BackupTarget): string {
  if (target.kind === 'pglite') return target.dataDir;
  try {
    const url = new URL(target.databaseUrl);
    url.password = '';
    return url.toString();
  } catch {
    return 'postgres';
  }
}

async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await refusedWhenBusy(work);
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message);
    throw error;
  }
}
