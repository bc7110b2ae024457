import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rendererIsCurrent } from '../../../../main/hosts/web/build-renderer';
import { useScratchDirPerTest } from '../../../fixtures/scratch';

const scratch = useScratchDirPerTest('build-renderer');

async function fileAt(path: string, secondsSinceEpoch: number): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, 'x');
  await utimes(path, secondsSinceEpoch, secondsSinceEpoch);
}

describe('rendererIsCurrent', () => {
  it('asks for a build when there is none, or when a source below any of its folders is newer than it', async () => {
    const dist = join(scratch.dir, 'dist');
    const sources = [join(scratch.dir, 'renderer'), join(scratch.dir, 'domain')];
    await fileAt(join(sources[0]!, 'screens', 'Workbench.tsx'), 1_000);
    await fileAt(join(sources[1]!, 'jobs.ts'), 1_000);
    expect(rendererIsCurrent(dist, sources)).toBe(false);

    await fileAt(join(dist, 'index.html'), 2_000);
    expect(rendererIsCurrent(dist, sources)).toBe(true);

    await fileAt(join(sources[1]!, 'files', 'cbor.ts'), 3_000);
    expect(rendererIsCurrent(dist, sources)).toBe(false);
  });

  it('takes a build as current where the sources are not there (an installed app)', async () => {
    const dist = join(scratch.dir, 'dist');
    await fileAt(join(dist, 'index.html'), 2_000);
    expect(rendererIsCurrent(dist, [join(scratch.dir, 'no-such-folder')])).toBe(true);
  });
});
