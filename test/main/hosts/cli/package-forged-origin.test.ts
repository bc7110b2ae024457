import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { useScratchDir } from '../../../fixtures/scratch';
import { makePackage, packageWorld, rootFingerprintOf } from '../../app/packages/helpers';

/**
 * A forged work package (the project's own package code, a root and organization key made now)
 * that names a plain http:// service on another computer, imported on a laptop never signed in:
 * refused whether or not the technician gives the genuine service's root fingerprint, and whatever
 * API key is offered; no login, key or file is kept, and nothing later names that service.
 */

const scratch = useScratchDir('package-forged-origin');

describe('package import of a forged package naming a plain-http remote service', () => {
  it('is refused, and no login, key or file is kept', async () => {
    const genuine = packageWorld();
    const forger = packageWorld();
    const { bytes } = makePackage(forger, { change: (body) => (body.origin.serviceUrl = 'http://203.0.113.7:8080') });
    const home = join(scratch.dir, 'laptop');
    const file = join(scratch.dir, 'forged.pkg');
    await writeFile(file, bytes);
    for (const args of [[], ['--root-fingerprint', rootFingerprintOf(genuine)], ['--api-key', 'pvk_technician-key']]) {
      const run = await runCliIn(home, ['package', 'import', file, ...args]);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stderr, args.join(' ')).toMatch(/^error: (This laptop has never been signed in to http:\/\/203\.0\.113\.7:8080|The work package carries a root key with fingerprint|package import takes no API key)/);
    }
    const status = await runCliIn(home, ['--json', 'status']);
    expect(status.stdout).not.toContain('203.0.113.7');
    expect(JSON.parse(status.stdout).account).toEqual({ kind: 'local-workspace' });
    const kept = await readdir(home, { recursive: true }).catch(() => [] as string[]);
    expect(kept.filter((name) => /credentials|work-packages|accounts|config-file-signing-key/.test(String(name)))).toEqual([]);
  });
});
