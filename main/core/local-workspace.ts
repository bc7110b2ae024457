import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Region } from '../../domain/enums';
import { writeFileAtomic } from '../../platform/durable-file';
import { tryAcquireLock, type HeldLock } from '../../platform/durable-lock';
import { makePrivate } from '../../platform/private-files';
import { createServiceClient, ServiceError, type ServiceClient } from '../cloud';

/**
 * The local workspace: the service itself, embedded on a database in the workspace's folder and
 * seeded as `seed-demo` does (the demo organization, an Admin key, the demo fleet's manufacturing
 * records and firmware), served on a loopback port. The app and the CLI work on it without an
 * account (training, demos, the bench); its data survives restarts and seeding again changes
 * nothing.
 */
export interface LocalWorkspace {
  serviceUrl: string;
  orgId: string;
  apiKey: string;
  organizationName: string;
  region: Region;
  close(): Promise<void>;
}

export type LocalWorkspaceStarter = () => Promise<LocalWorkspace>;

/**
 * The outbox's name for the local workspace: its URL changes from run to run (a free loopback
 * port), so the app and the CLI file its confirmations under this name and they still reach it in
 * a later run.
 */
export const LOCAL_WORKSPACE_SERVICE = 'local-workspace';

export interface LocalWorkspaceOptions {
  /** Its folder: the database (service/), what it remembers (workspace.json) and its lock. */
  dir: string;
  /**
   * Also register the demo fleet's devices in the organization, once (the CLI: a newcomer updates
   * simulated devices at once). Devices a person removes later stay removed.
   */
  registerDemoFleet?: boolean;
  /**
   * The database takes one process at a time: how long to wait for another one to close it. The
   * CLI waits for the command before it; the app says so at once. Default 0.
   */
  lockWaitMs?: number;
}

/** Another process has the workspace open (and kept it past `lockWaitMs`). */
export class LocalWorkspaceBusyError extends Error {
  override readonly name = 'LocalWorkspaceBusyError';
}

/** An abandoned lock (a killed process on another host) is taken over after this long. */
const LOCK_STALE_MS = 5 * 60_000;
/** A workspace held for hours (the app, a fleet at 115200 baud) must not let its lock look abandoned. */
const LOCK_REFRESH_MS = 60_000;
const LOCK_POLL_MS = 250;

export function embeddedWorkspaceStarter(
  dir: string,
  options: Omit<LocalWorkspaceOptions, 'dir'> = {},
): LocalWorkspaceStarter {
  return () => openLocalWorkspace({ ...options, dir });
}

export async function openLocalWorkspace(options: LocalWorkspaceOptions): Promise<LocalWorkspace> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const lock = await acquire(join(options.dir, 'workspace.lock'), options.lockWaitMs ?? 0);
  const keepAlive = setInterval(() => void lock.refresh().catch(() => undefined), LOCK_REFRESH_MS);
  keepAlive.unref();
  const release = async () => {
    clearInterval(keepAlive);
    await lock.release();
  };
  try {
    // Loaded here, not at the top: the service (database, HTTP server) is heavy, and a command
    // that never needs the workspace should not pay for it.
    const { getOrganization, loadDefaultReleaseKey, seedDemo, startService } = await import('../../server');
    // A database an earlier version (or a crash before close) left with PGlite's own modes.
    await makePrivate(options.dir);
    const serviceDir = join(options.dir, 'service');
    const service = await startService({ dataDir: serviceDir, host: '127.0.0.1', port: 0 });
    try {
      // Cheap once seeded: the firmware bundles, the slow part, are built only when missing. They
      // are signed with the service's default release key, which it trusts.
      const seed = await seedDemo(service.db, {
        releaseKey: await loadDefaultReleaseKey(serviceDir),
        configurations: true,
      });
      if (options.registerDemoFleet)
        await registerDemoFleetOnce(
          options.dir,
          createServiceClient({ baseUrl: service.url, orgId: seed.orgId, apiKey: seed.adminKey }),
        );
      const org = await getOrganization(service.db, seed.orgId);
      return {
        serviceUrl: service.url,
        orgId: seed.orgId,
        apiKey: seed.adminKey,
        organizationName: org?.name ?? seed.orgId,
        region: org?.region ?? 'NA',
        close: async () => {
          try {
            await service.close();
            // PGlite's file system creates its files 0666 whatever the umask; the workspace's
            // folder (0700) kept them from others meanwhile.
            await makePrivate(join(options.dir, 'service'));
          } finally {
            await release();
          }
        },
      };
    } catch (error) {
      await service.close();
      throw error;
    }
  } catch (error) {
    await release();
    throw error;
  }
}

async function acquire(path: string, waitMs: number): Promise<HeldLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const lock = await tryAcquireLock(path, { staleMs: LOCK_STALE_MS });
    if (lock) return lock;
    if (Date.now() >= deadline)
      throw new LocalWorkspaceBusyError('another Provisioner process is using the local workspace');
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/** What the workspace remembers between runs. */
interface WorkspaceMemory {
  demoFleetRegistered: boolean;
}

const MEMORY_FORMAT = 'provisioner-local-workspace/2';

async function readMemory(path: string): Promise<WorkspaceMemory> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as { format?: unknown; demoFleetRegistered?: unknown };
    // Format 1 (the CLI's until the app and the CLI shared this module) was written right after registering the fleet.
    if (value.format === 'provisioner-local-workspace/1') return { demoFleetRegistered: true };
    if (value.format === MEMORY_FORMAT) return { demoFleetRegistered: value.demoFleetRegistered === true };
  } catch {
    // Missing or damaged: nothing remembered.
  }
  return { demoFleetRegistered: false };
}

async function registerDemoFleetOnce(dir: string, client: ServiceClient): Promise<void> {
  const path = join(dir, 'workspace.json');
  if ((await readMemory(path)).demoFleetRegistered) return;
  await registerDemoFleet(client);
  const memory: WorkspaceMemory = { demoFleetRegistered: true };
  await writeFileAtomic(path, `${JSON.stringify({ format: MEMORY_FORMAT, ...memory }, null, 2)}\n`);
}

/** The demo fleet registered in the demo organization, so its devices can be updated straight away. */
async function registerDemoFleet(client: ServiceClient): Promise<void> {
  const { demoManufacturingRecords } = await import('../../server');
  const registered = new Set<string>();
  for await (const device of client.devices.listAll()) registered.add(device.serialNumber);
  for (const record of demoManufacturingRecords()) {
    if (registered.has(record.serialNumber)) continue;
    try {
      await client.devices.register({
        serialNumber: record.serialNumber,
        name: `${record.model} ${record.serialNumber}`,
      });
    } catch (error) {
      // Registered meanwhile by a person through the API: fine.
      if (!(error instanceof ServiceError) || error.httpStatus !== 409) throw error;
    }
  }
}
