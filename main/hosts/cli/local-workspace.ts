import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServiceClient, ServiceError, type ServiceClient } from '../../cloud';
import { tryAcquireLock, type HeldLock } from '../../../platform/durable-lock';
import { demoManufacturingRecords, seedDemo, startService } from '../../../server';
import { CliError } from './errors';

/**
 * Without a login the CLI works on the local workspace: the service itself, embedded, on a
 * database under the user's data directory, seeded as `seed-demo` does (the demo organization, an
 * Admin key, the demo fleet's manufacturing records and firmware) with the demo fleet registered,
 * served on a loopback port for the length of one command. A newcomer can provision simulated
 * devices at once.
 *
 * Its port changes from run to run, so confirmations are filed under a fixed name
 * (LOCAL_WORKSPACE_SERVICE), not under its URL, and reach it in a later run.
 */
export { LOCAL_WORKSPACE_SERVICE } from './local-workspace-name';

export interface LocalWorkspace {
  url: string;
  orgId: string;
  client: ServiceClient;
  close(): Promise<void>;
}

/** The embedded database takes one process at a time: a second command waits this long for the first. */
const LOCK_WAIT_MS = 60_000;

async function acquire(path: string): Promise<HeldLock> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const lock = await tryAcquireLock(path, { staleMs: 5 * 60_000 });
    if (lock) return lock;
    if (Date.now() > deadline) {
      throw new CliError('another provisioner command is using the local workspace; wait for it to finish, or log in to a service');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function openLocalWorkspace(dataDir: string): Promise<LocalWorkspace> {
  const dir = join(dataDir, 'local-workspace');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = await acquire(join(dir, 'workspace.lock'));
  // A long command (a fleet at 115200 baud) must not let its lock look abandoned.
  const keepAlive = setInterval(() => void lock.refresh().catch(() => undefined), 60_000);
  keepAlive.unref();
  try {
    const service = await startService({ dataDir: join(dir, 'service'), host: '127.0.0.1', port: 0 });
    try {
      // Seeding builds the demo firmware and registers the fleet: done once, then remembered
      // (a command should not spend a second on it every time).
      const marker = join(dir, 'workspace.json');
      let seed = await readSeed(marker);
      if (!seed) {
        seed = await seedDemo(service.db);
        await registerDemoFleet(createServiceClient({ baseUrl: service.url, orgId: seed.orgId, apiKey: seed.adminKey }));
        await writeSeed(marker, seed);
      }
      const client = createServiceClient({ baseUrl: service.url, orgId: seed.orgId, apiKey: seed.adminKey });
      return {
        url: service.url,
        orgId: seed.orgId,
        client,
        close: async () => {
          clearInterval(keepAlive);
          await service.close();
          await lock.release();
        },
      };
    } catch (error) {
      await service.close();
      throw error;
    }
  } catch (error) {
    clearInterval(keepAlive);
    await lock.release();
    throw error;
  }
}

interface Seed {
  orgId: string;
  adminKey: string;
}

async function readSeed(path: string): Promise<Seed | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<Seed> & { format?: string };
    return value.format === 'provisioner-local-workspace/1' && typeof value.orgId === 'string' && typeof value.adminKey === 'string'
      ? { orgId: value.orgId, adminKey: value.adminKey }
      : undefined;
  } catch {
    return undefined;
  }
}

async function writeSeed(path: string, seed: Seed): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify({ format: 'provisioner-local-workspace/1', ...seed }, null, 2) + '\n', { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
}

/** The demo fleet registered in the demo organization, so its devices can be updated straight away. */
async function registerDemoFleet(client: ServiceClient): Promise<void> {
  const registered = new Set<string>();
  for await (const device of client.devices.listAll()) registered.add(device.serialNumber);
  for (const record of demoManufacturingRecords()) {
    if (registered.has(record.serialNumber)) continue;
    try {
      await client.devices.register({ serialNumber: record.serialNumber, name: `${record.model} ${record.serialNumber}` });
    } catch (error) {
      // Registered meanwhile by a person through the API: fine.
      if (!(error instanceof ServiceError) || error.httpStatus !== 409) throw error;
    }
  }
}
