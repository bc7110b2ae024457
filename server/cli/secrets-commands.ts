import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Database } from '../db/database';
import { parseSealingKey, resealAll } from '../store/sealing';
import { loadServiceSecrets, sealingKeyFromEnvironment } from '../store/secrets';
import { CliError } from './cli-error';
import type { SecurityEventSink } from './security-log';

/** What the secrets commands need of the program around them. */
export interface SecretsCommandContext {
  out: (text: string) => void;
  err: (text: string) => void;
  security: SecurityEventSink;
  withDatabase: <T>(work: (db: Database) => Promise<T>) => Promise<T>;
  env?: NodeJS.ProcessEnv;
}

/** The key to move to: PROVISIONER_NEW_SEALING_KEY, or a file (never on the command line, where `ps` shows it). */
function newSealingKey(file: string | undefined, env: NodeJS.ProcessEnv): Uint8Array {
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    return parseSealingKey(text, `The new sealing key in ${file}`);
  }
  const value = env.PROVISIONER_NEW_SEALING_KEY;
  if (!value)
    throw new CliError(
      'Give the new sealing key in PROVISIONER_NEW_SEALING_KEY or a file named by --new-key-file (make one with: openssl rand -base64 32 > key && chmod 600 key).',
    );
  return parseSealingKey(value, 'PROVISIONER_NEW_SEALING_KEY');
}

/** secrets reseal: moving the database's sealed secrets to another sealing key. */
export function addSecretsCommands(program: Command, ctx: SecretsCommandContext): void {
  const secrets = program
    .command('secrets')
    .description(
      'The sealing key that keeps API keys, Wifi passwords and signing keys unreadable in a copy of the database.',
    );
  secrets
    .command('reseal')
    .description(
      'Open every sealed secret with the current sealing key (PROVISIONER_SEALING_KEY(_FILE), or the one the database keeps) and seal it with a new one, in one transaction. Stop every instance first; start them with the new key.',
    )
    .option(
      '--new-key-file <file>',
      'a file holding the new key (base64 of 32 bytes); default: PROVISIONER_NEW_SEALING_KEY',
    )
    .action(async (options: { newKeyFile?: string }) => {
      const env = ctx.env ?? process.env;
      const next = newSealingKey(options.newKeyFile, env);
      const current = sealingKeyFromEnvironment(env);
      if (current && Buffer.from(current.key).equals(Buffer.from(next)))
        throw new CliError('The new sealing key is the current one: nothing to do.');
      const moved = await ctx.withDatabase(async (db) => {
        // Loading the secrets checks the current key first: a wrong one changes nothing.
        const { box } = await loadServiceSecrets(db, env);
        return db.transaction((tx) => resealAll(tx, box, next));
      });
      ctx.security(
        { event: 'configuration', setting: 'sealing-key' },
        `secrets resealed with a new sealing key (${moved})`,
      );
      ctx.out(`resealed ${moved} secrets\n`);
      ctx.err(
        'start the service with the new key only (PROVISIONER_SEALING_KEY_FILE or PROVISIONER_SEALING_KEY): the old one no longer opens them, and the database keeps no key of its own\n',
      );
    });
}
