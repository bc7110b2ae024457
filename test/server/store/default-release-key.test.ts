import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultReleaseKeyDir, loadDefaultReleaseKey } from '../../../server/store/default-release-key';
import { useScratchDirPerTest } from '../../fixtures/scratch';

describe('the default release key of a data directory', () => {
  const scratch = useScratchDirPerTest('default-release-key');

  it('is made once: loads that race (as two processes starting together do) all get the first one made, and no staged file is left', async () => {
    const data = join(scratch.dir, 'service');
    const pairs = await Promise.all([1, 2, 3, 4].map(() => loadDefaultReleaseKey(data)));
    expect(new Set(pairs.map((pair) => pair.privateKeyPem)).size).toBe(1);
    expect((await loadDefaultReleaseKey(data)).publicKeyPem).toBe(pairs[0]!.publicKeyPem);
    const dir = defaultReleaseKeyDir(data);
    expect((await readdir(dir)).sort()).toEqual(['default.pem', 'default.pub']);
    expect((await stat(join(dir, 'default.pem'))).mode & 0o777).toBe(0o600);
  });
});
