import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateContainerSigner } from '../../../../domain/files/work-package-container';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';
import { makePackage, packageWorld } from '../../app/packages/helpers';

/**
 * A forged work package (the project's own package code, a key made now) that names a plain
 * http:// service on another computer, imported with the technician's API key on a laptop that is
 * not logged in: refused before anything is kept, so no later command sends the key there.
 */

const scratch = useScratchDir('package-forged-origin');

describe('package import of a package naming a plain-http remote service', () => {
  it('is refused, and no login, key or file is kept', async () => {
    const world = { ...packageWorld(), signer: generateContainerSigner() };
    const { bytes } = makePackage(world, { change: (body) => (body.origin.serviceUrl = 'http://203.0.113.7:8080') });
    const home = join(scratch.dir, 'laptop');
    const file = join(scratch.dir, 'forged.pkg');
    await writeFile(file, bytes);
    const run = await runCliIn(home, ['package', 'import', file, '--api-key', 'pvk_technician-key']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not importing: the package names the service http:\/\/203\.0\.113\.7:8080.*unencrypted/);
    const status = await runCliIn(home, ['--json', 'status']);
    expect(status.stdout).not.toContain('203.0.113.7');
    const kept = await readdir(home, { recursive: true }).catch(() => [] as string[]);
    expect(kept.filter((name) => /credentials|work-packages|accounts/.test(String(name)))).toEqual([]);
  });
});
