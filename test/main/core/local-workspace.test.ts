import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLocalWorkspace, LocalWorkspaceBusyError, type LocalWorkspace } from '../../../main/core/local-workspace';
import { createServiceClient } from '../../../main/cloud';
import { DEVICE_TYPES } from '../../../domain/device-types';
import { demoSerialNumbers } from '../../../server';
import { demoConfigurations } from '../../../server/seed/demo-configurations';
import { modesUnder } from '../../fixtures/file-modes';
import { useScratchDir } from '../../fixtures/scratch';

/** The devices of the six demo configurations: registered whenever the workspace is seeded. */
const configurationDevices = demoConfigurations()
  .flatMap((c) => c.seeded.devices.map((d) => d.payload.serialNumber))
  .sort();

/**
 * The local workspace the app and the CLI share: the embedded service with the demo organization,
 * on a database that survives restarts, one process at a time, with the demo fleet registered
 * where asked.
 */

const scratch = useScratchDir('workspace');

/** Opens the workspace, hands it to `use`, and closes it whatever `use` does. */
async function withWorkspace<T>(
  options: Parameters<typeof openLocalWorkspace>[0],
  use: (workspace: LocalWorkspace) => Promise<T>,
): Promise<T> {
  const workspace = await openLocalWorkspace(options);
  try {
    return await use(workspace);
  } finally {
    await workspace.close();
  }
}

function clientOf(workspace: LocalWorkspace) {
  return createServiceClient({ baseUrl: workspace.serviceUrl, orgId: workspace.orgId, apiKey: workspace.apiKey });
}

async function registeredSerialNumbers(workspace: LocalWorkspace): Promise<string[]> {
  const serials: string[] = [];
  for await (const device of clientOf(workspace).devices.listAll()) serials.push(device.serialNumber);
  return serials.sort();
}

describe('the local workspace', () => {
  it(
    'serves the demo organization with an Admin key and its demo configurations; as the app opens it, without the demo fleet',
    { timeout: 180_000 },
    async () => {
      await withWorkspace({ dir: join(scratch.dir, 'app') }, async (workspace) => {
        expect(workspace).toMatchObject({ orgId: 'demo', organizationName: 'Demo organization', region: 'NA' });
        expect(workspace.serviceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const validated = await clientOf(workspace).apiKeys.validate(workspace.apiKey, { retry: false });
        expect(validated).toMatchObject({ valid: true, role: 'Admin' });
        expect(configurationDevices.length).toBeGreaterThan(6);
        expect(await registeredSerialNumbers(workspace)).toEqual(configurationDevices);
      });
      // PGlite writes its files 0666 whatever the umask; closed, the database is the user's alone.
      expect(await modesUnder(join(scratch.dir, 'app'))).toEqual({ dirs: [0o700], files: [0o600] });
    },
  );

  it(
    'registers the demo fleet, as the CLI asks, and remembers that it did; the key survives a restart',
    { timeout: 180_000 },
    async () => {
      const dir = join(scratch.dir, 'cli');
      const fleet = [...DEVICE_TYPES.flatMap((type) => demoSerialNumbers(type)), ...configurationDevices].sort();
      const firstKey = await withWorkspace({ dir, registerDemoFleet: true }, async (first) => {
        expect(await registeredSerialNumbers(first)).toEqual(fleet);
        return first.apiKey;
      });
      expect(JSON.parse(await readFile(join(dir, 'workspace.json'), 'utf8'))).toEqual({
        format: 'provisioner-local-workspace/2',
        demoFleetRegistered: true,
      });
      expect((await stat(join(dir, 'workspace.json'))).mode & 0o777).toBe(0o600);

      await withWorkspace({ dir, registerDemoFleet: true }, async (second) => {
        expect(second.apiKey).toBe(firstKey);
        expect(await registeredSerialNumbers(second)).toEqual(fleet);
      });
    },
  );

  // What it remembers is what keeps a device a person removed from coming back at the next start.
  it(
    'registers nothing where it remembers having done so, as a CLI workspace of an earlier version says',
    { timeout: 180_000 },
    async () => {
      const dir = join(scratch.dir, 'earlier');
      const seeded = await openLocalWorkspace({ dir });
      await seeded.close();
      await writeFile(
        join(dir, 'workspace.json'),
        JSON.stringify({ format: 'provisioner-local-workspace/1', orgId: 'demo', adminKey: seeded.apiKey }),
      );
      await withWorkspace({ dir, registerDemoFleet: true }, async (reopened) => {
        expect(await registeredSerialNumbers(reopened)).toEqual(configurationDevices);
      });
    },
  );

  it(
    'is open in one process at a time: another waits as long as it is told, then hears why',
    { timeout: 180_000 },
    async () => {
      const dir = join(scratch.dir, 'busy');
      const holder = await openLocalWorkspace({ dir });
      let held = true;
      try {
        await expect(openLocalWorkspace({ dir })).rejects.toBeInstanceOf(LocalWorkspaceBusyError);
        const waiting = openLocalWorkspace({ dir, lockWaitMs: 120_000 });
        await holder.close();
        held = false;
        const next = await waiting;
        await next.close();
      } finally {
        if (held) await holder.close();
      }
      // Closed means the lock is gone too.
      await expect(readFile(join(dir, 'workspace.lock'))).rejects.toThrow(/ENOENT/);
    },
  );
});
