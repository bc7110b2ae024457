import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server';
import { buildProgram } from '../../server/cli/program';
import { pgliteTemplate } from './harness';

/**
 * The service's data directory holds the sealed keys and the signing keys: another user on the
 * machine must read none of it. Checked on the files themselves: PGlite's cluster while it is open
 * and after, and a directory someone loosened before `serve`.
 */

/** Every path under root that group or others may read, write or enter, with its mode. */
function sharedPaths(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const info = lstatSync(path);
    if (info.isSymbolicLink()) return;
    if ((info.mode & 0o077) !== 0) found.push(`${path} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

const count = (root: string) => {
  let n = 0;
  const walk = (path: string) => {
    n += 1;
    if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return n;
};

describe.runIf(process.platform !== 'win32')("the service's data directory", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'provisioner-private-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is private to the user while PGlite has it open and after it closes', async () => {
    const data = join(dir, 'parent', 'service');
    const db = await openDatabase({ dataDir: data, pgliteTemplate: await pgliteTemplate() });
    try {
      expect(count(data)).toBeGreaterThan(100);
      expect(sharedPaths(data)).toEqual([]);
      await db.query('CREATE TABLE written_while_open (x int)');
    } finally {
      await db.close();
    }
    expect(sharedPaths(data)).toEqual([]);
    expect(lstatSync(join(dir, 'parent')).mode & 0o777).toBe(0o700);
  });

  it('serve makes a loosened directory private before serving and says how much in one warning line', async () => {
    const data = join(dir, 'loosened');
    const db = await openDatabase({ dataDir: data, pgliteTemplate: await pgliteTemplate() });
    await db.close();
    // What an older version, a copy with another umask or a person leaves behind.
    chmodSync(data, 0o755);
    chmodSync(join(data, 'PG_VERSION'), 0o644);
    chmodSync(join(data, 'global'), 0o755);
    mkdirSync(join(data, 'notes'), { mode: 0o755 });
    chmodSync(join(data, 'notes'), 0o755);
    writeFileSync(join(data, 'notes', 'admin-key.txt'), 'pvk_...');
    chmodSync(join(data, 'notes', 'admin-key.txt'), 0o644);

    let out = '';
    let err = '';
    let listening!: () => void;
    const up = new Promise<void>((resolve) => (listening = resolve));
    let stop!: (signal: string) => void;
    const stopRequested = new Promise<string>((resolve) => (stop = resolve));
    const program = buildProgram({
      out: (text) => {
        out += text;
        if (text.startsWith('listening on')) listening();
      },
      err: (text) => (err += text),
      waitForStop: () => stopRequested,
    });
    const serving = program.parseAsync(['serve', '--port', '0', '--data', data], { from: 'user' });
    await Promise.race([up, serving]);
    expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(err).toBe(
      `warning: 2 files and 3 directories in ${data} could be read by other users; made them private (files 0600, directories 0700)\n`,
    );
    expect(sharedPaths(data)).toEqual([]);
    stop('SIGTERM');
    await serving;
    expect(sharedPaths(data)).toEqual([]);
  });
});
