import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { QuarantinedFile } from '../../platform/quarantine';
import { FileSecretStore } from '../../platform/secret-store';
import { useScratchDirPerTest } from '../fixtures/scratch';

const scratch = useScratchDirPerTest('secrets');
let reported: QuarantinedFile[];

beforeEach(async () => {
  reported = [];
});

const store = () => new FileSecretStore(join(scratch.dir, 'secrets.json'), (file) => reported.push(file));

describe('file secret store', () => {
  it('keeps secrets across instances', async () => {
    await store().set('apiKey', 'k-1');
    await store().set('other', 'k-2');
    expect(await store().get('apiKey')).toBe('k-1');
    await store().delete('apiKey');
    expect(await store().get('apiKey')).toBeNull();
    expect(await store().get('other')).toBe('k-2');
  });

  for (const [what, bytes] of [
    ['garbage', Buffer.from([0x00, 0x9f, 0xff, 0x10])],
    ['truncated', Buffer.from('{"apiKey":"k-1","oth')],
    ['not all text', Buffer.from('{"apiKey":"k-1","other":42}')],
  ] as const) {
    it(`quarantines a ${what} file, private and intact, before anything overwrites it`, async () => {
      await writeFile(join(scratch.dir, 'secrets.json'), bytes, { mode: 0o600 });
      const first = store();
      expect(await first.get('other')).toBeNull();
      expect(reported).toHaveLength(1);
      const [name] = await readdir(join(scratch.dir, 'quarantine'));
      const kept = join(scratch.dir, 'quarantine', name!);
      expect(reported[0]!.path).toBe(kept);
      expect((await readFile(kept)).equals(bytes)).toBe(true);
      expect((await stat(kept)).mode & 0o777).toBe(0o600);
      expect((await stat(join(scratch.dir, 'quarantine'))).mode & 0o777).toBe(0o700);
      // Signing in again writes a new file; the damaged one stays where it was put.
      await first.set('apiKey', 'k-new');
      expect(await store().get('apiKey')).toBe('k-new');
      expect((await readFile(kept)).equals(bytes)).toBe(true);
      expect(reported).toHaveLength(1);
    });
  }
});
