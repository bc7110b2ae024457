import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliCore } from '../../../main/core';
import { cliCoreFor } from '../../fixtures/cli-core';

/**
 * Issue 27: the CLI's `cache list|prune` through the door (createCliCore's `cache.contents` and
 * `cache.prune`): an empty cache lists nothing for the settled account, and a prune the technician
 * asks for wrongly is refused with what a good one looks like. The client points at a loopback port
 * nobody listens on: neither channel asks the service.
 */

let dataDir = '';
let core: CliCore | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-core-cache-'));
  core = cliCoreFor(dataDir, { serviceUrl: 'http://127.0.0.1:9', orgId: 'org-1' });
});
afterEach(async () => {
  await core?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the CLI core's cache channels", () => {
  it('cache.contents of an empty cache: no bundles, patches or kept files', async () => {
    expect(await core!.invoke('cache.contents', {})).toEqual({ firmware: [], patches: [], configurationFiles: [] });
  });

  it('cache.prune removes nothing from an empty cache', async () => {
    expect(await core!.invoke('cache.prune', { keepPerType: 0 })).toEqual([]);
  });

  it('cache.prune refuses a count that is not a whole number of 0 or more', async () => {
    await expect(core!.invoke('cache.prune', { keepPerType: -1 })).rejects.toThrow(/0 or more/);
    await expect(core!.invoke('cache.prune', { keepPerType: 1.5 })).rejects.toThrow(/whole number/);
  });

  it('cache.prefetch refuses a device type it does not know', async () => {
    await expect(core!.invoke('cache.prefetch', { deviceTypes: ['TOASTER' as never] })).rejects.toThrow(/deviceTypes/);
  });
});
