import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyRole } from '../../../domain';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from '../../../main/cloud';
import { issueApiKey, seedDemo, startService, type RunningService } from '../../../server';

/**
 * The real service over real HTTP on a free port, on a PGlite directory of its own, seeded with the
 * demo organization (an Admin key, a small fleet of every type, two firmware versions per type).
 * `restart()` stops it and starts it again on the same data directory and port, as after a crash
 * or an outage.
 */
export interface TestService {
  readonly url: string;
  readonly orgId: string;
  readonly adminKey: string;
  readonly dataDir: string;
  running: RunningService | undefined;
  client(options?: Partial<ServiceClientOptions>): ServiceClient;
  issueKey(name: string, role: ApiKeyRole): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startTestService(): Promise<TestService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'provisioner-service-'));
  let running: RunningService | undefined = await startService({ dataDir: join(dataDir, 'db'), port: 0 });
  const seed = await seedDemo(running.db);
  const port = running.port;
  const url = running.url;
  const harness: TestService = {
    url,
    orgId: seed.orgId,
    adminKey: seed.adminKey,
    dataDir,
    get running() {
      return running;
    },
    set running(value) {
      running = value;
    },
    client: (options = {}) =>
      createServiceClient({ baseUrl: url, orgId: seed.orgId, apiKey: seed.adminKey, ...options }),
    async issueKey(name, role) {
      if (!running) throw new Error('service stopped');
      const issued = await issueApiKey(running.db, running.ctx.secrets.box, { orgId: seed.orgId, name, role });
      if (issued === 'name-taken') throw new Error(`key ${name} exists`);
      return issued.key;
    },
    async stop() {
      await running?.close();
      running = undefined;
    },
    async start() {
      if (running) return;
      running = await startService({ dataDir: join(dataDir, 'db'), port });
    },
    async restart() {
      await harness.stop();
      await harness.start();
    },
    async dispose() {
      await harness.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
