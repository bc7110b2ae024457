import { readFileSync, statSync } from 'node:fs';

/**
 * Where an instance finds the database password when its connection string carries none:
 * `$PROVISIONER_DATABASE_PASSWORD_FILE`, a file only its user can read (the stack writes one,
 * 0600, beside its cluster; docs/operations.md). Kept out of the connection string, the command
 * line and the environment, where other local users or logs could read it.
 */
export const PASSWORD_FILE_ENV = 'PROVISIONER_DATABASE_PASSWORD_FILE';

/**
 * node-postgres connection settings for `databaseUrl`, with the password from the file when one is
 * named. It goes into the connection string held in memory: node-postgres lets a connection
 * string's (empty) password override a separate `password` setting.
 */
export function connectionSettings(
  databaseUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): { connectionString: string } {
  const file = env[PASSWORD_FILE_ENV];
  if (!file) return { connectionString: databaseUrl };
  const password = readPasswordFile(file);
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error(`${PASSWORD_FILE_ENV} needs a connection string of the form postgres://USER@HOST:PORT/DATABASE.`);
  }
  if (url.password !== '')
    throw new Error(
      `The connection string carries a password and ${PASSWORD_FILE_ENV} names another: give one of them.`,
    );
  if (url.host === '')
    throw new Error(`${PASSWORD_FILE_ENV} needs a connection string with a host (postgres://USER@HOST:PORT/DATABASE).`);
  url.password = encodeURIComponent(password);
  return { connectionString: url.toString() };
}

/** The first line of `file`; refused when others may read it, or when it is empty. */
export function readPasswordFile(file: string): string {
  let mode: number;
  let text: string;
  try {
    mode = statSync(file).mode;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `Cannot read the database password file ${file} (${PASSWORD_FILE_ENV}): ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
    );
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new Error(
      `The database password file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 ${file}.`,
    );
  }
  const password = text.split('\n')[0]!.trim();
  if (password === '') throw new Error(`The database password file ${file} is empty.`);
  return password;
}

/** Whether a connection string carries a password, which must then stay off command lines (`ps` shows them to every local user). */
export function carriesPassword(databaseUrl: string): boolean {
  try {
    return new URL(databaseUrl).password !== '';
  } catch {
    // Not a URL (the key=value form): look for the word.
    return /\bpassword\s*=/i.test(databaseUrl);
  }
}

/** What to say when one was given on a command line. */
export const PASSWORD_ON_COMMAND_LINE = `--database-url holds a password, which every local user can read on a command line (ps): give the connection string in $DATABASE_URL instead, or its password in a 0600 file named by $${PASSWORD_FILE_ENV}.`;
