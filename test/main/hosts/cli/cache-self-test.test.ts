import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliCore } from '../../../../main/core';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { cliCoreFor } from '../../../fixtures/cli-core';

/**
 * `cache self-test` (hidden): the firmware cache's zopfli worker tried on a built-in sample, asked
 * of the core (`support.cacheSelfTest`), here from the source tree (the single executable's own
 * run is in test/scripts/build-cli.test.ts). The sample is a few repeated opcodes: a stream that
 * is not well under half of it was not made by zopfli.
 */

const homes: string[] = [];
let core: CliCore | undefined;

async function home(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cache-self-test-'));
  homes.push(dir);
  return dir;
}

afterEach(async () => {
  await core?.close();
  core = undefined;
  for (const dir of homes.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('cache self-test', () => {
  it('says in words and in JSON that the worker made a stream that inflates back, with no account', async () => {
    const dir = await home();
    const json = await runCliIn(dir, ['--json', 'cache', 'self-test']);
    expect(json.code, json.stderr).toBe(0);
    const { zopfli } = JSON.parse(json.stdout) as {
      zopfli: { sourceBytes: number; streamBytes: number; inflatesBack: boolean };
    };
    expect(zopfli).toEqual({ sourceBytes: 8192, streamBytes: expect.any(Number), inflatesBack: true });
    expect(zopfli.streamBytes).toBeGreaterThan(0);
    expect(zopfli.streamBytes).toBeLessThan(zopfli.sourceBytes / 2);

    const words = await runCliIn(dir, ['cache', 'self-test']);
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toBe(
      `zopfli on its worker thread: 8192 bytes deflated to ${zopfli.streamBytes}, and inflated back to the same bytes.\n`,
    );
  });

  it("is the core's support.cacheSelfTest, which needs no account", async () => {
    const dataDir = await home();
    // With no account: a channel that asked for one would be refused.
    core = cliCoreFor(dataDir, undefined);
    const result = await core.invoke('support.cacheSelfTest', {});
    if (result.outcome !== 'passed') throw new Error(`self-test failed: ${JSON.stringify(result)}`);
    expect(result.sourceBytes).toBe(8192);
    expect(result.streamBytes).toBeLessThan(result.sourceBytes / 2);
  });
});
