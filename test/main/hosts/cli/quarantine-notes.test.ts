import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * Every CLI command says so in one way when a damaged file of its data directory is set aside
 * (CliContext.noteQuarantined): here the data directory's secrets file, which holds the work
 * package signing key, read by `package export-confirmations`.
 */

const scratch = useScratchDir('cli-quarantine');

describe('a damaged secrets file of the data directory', () => {
  it('is set aside with its bytes and named by the command that found it', async () => {
    const home = join(scratch.dir, 'secrets');
    const data = join(home, 'data');
    await mkdir(data, { recursive: true, mode: 0o700 });
    const torn = '{"work-package-signing-key":"MC4CAQAwBQYDK2Vw';
    await writeFile(join(data, 'secrets.json'), torn, { mode: 0o600 });

    const run = await runCliIn(home, ['package', 'export-confirmations', '--out', join(home, 'done.confirmations')]);
    expect(run.stderr).toMatch(/note: A damaged file was set aside, not deleted: .*secrets\.json/);
    expect(run.stderr).not.toMatch(/SyntaxError|at .*\.ts:\d+/);
    const aside = await readdir(join(data, 'quarantine'));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(data, 'quarantine', aside[0]!), 'utf8')).toBe(torn);

    const again = await runCliIn(home, ['package', 'export-confirmations', '--out', join(home, 'done.confirmations')]);
    expect(again.stderr).not.toMatch(/set aside/);
  });

  it('is said in the run’s language, the paths and the parser’s words as they are', async () => {
    const home = join(scratch.dir, 'secrets-de');
    const data = join(home, 'data');
    await mkdir(data, { recursive: true, mode: 0o700 });
    await writeFile(join(data, 'secrets.json'), '{"work-package', { mode: 0o600 });
    const run = await runCliIn(home, [
      '--lang',
      'de',
      'package',
      'export-confirmations',
      '--out',
      join(home, 'done.confirmations'),
    ]);
    expect(run.stderr).toMatch(
      /Eine beschädigte Datei wurde beiseitegelegt, nicht gelöscht: .*secrets\.json \(.+\)\. Sie liegt jetzt unter .*quarantine/,
    );
    expect(run.stderr).not.toMatch(/set aside/);
  });
});
