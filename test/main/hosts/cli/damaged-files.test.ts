import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';

/**
 * A stolen-laptop or failing-disk view of the CLI's own files: a damaged login or confirmation
 * file is reported and set aside with its bytes intact, and the next run starts clean instead of
 * failing at every start.
 */

const cli = (home: string, args: string[]) => runCliIn(home, args);

async function quarantined(dir: string): Promise<string[]> {
  return (await readdir(join(dir, 'quarantine')).catch(() => [])).map((name) => join(dir, 'quarantine', name));
}

const scratch = useScratchDir('cli-damaged');

describe('a damaged saved login', () => {
  it('is reported once, set aside with its bytes, and the next run is simply logged out', async () => {
    const home = join(scratch.dir, 'login');
    await mkdir(home, { recursive: true, mode: 0o700 });
    // A login cut off mid-write by a failing disk.
    const torn = '{"format":"provisioner-credentials/1","serviceUrl":"https://dcms.exa';
    await writeFile(join(home, 'credentials.json'), torn, { mode: 0o600 });

    const first = await cli(home, ['status']);
    expect(first.code).not.toBe(0);
    expect(first.stderr).toMatch(/saved login .* is damaged; it was set aside as .*quarantine.*Log in again/);
    expect(first.stderr).not.toMatch(/SyntaxError|at .*\.ts:\d+/);
    const aside = await quarantined(home);
    expect(aside).toHaveLength(1);
    expect(await readFile(aside[0]!, 'utf8')).toBe(torn);

    const second = await cli(home, ['status']);
    expect(second.stderr).not.toMatch(/damaged/);
    expect(second.code).toBe(0);
  });
});

describe('a damaged confirmation in the outbox', () => {
  it('is set aside, not deleted, and the CLI says where it is', async () => {
    const home = join(scratch.dir, 'outbox');
    const pending = join(home, 'data', 'outbox', 'pending');
    await mkdir(pending, { recursive: true, mode: 0o700 });
    const garbage = Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x00, 0xff, 0x13]);
    await writeFile(join(pending, 'c-1.json'), garbage, { mode: 0o600 });

    const run = await cli(home, ['outbox', 'list']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/note: A damaged file was set aside, not deleted: .*c-1\.json/);
    const aside = await quarantined(join(home, 'data', 'outbox'));
    expect(aside).toHaveLength(1);
    expect(await readFile(aside[0]!)).toEqual(garbage);

    const again = await cli(home, ['outbox', 'list']);
    expect(again.stderr).not.toMatch(/set aside/);
  });
});
