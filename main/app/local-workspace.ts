import { join } from 'node:path';
import type { Region } from '../../domain/enums';
import { getOrganization, seedDemo, startService, type RunningService } from '../../server';

/**
 * The local workspace: the service itself, embedded and seeded with the demo organization, so the
 * app works without a cloud account (training, demos, the bench). Its data lives under the
 * workspace directory and survives restarts; seeding again changes nothing.
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

export function embeddedWorkspaceStarter(workspaceDir: string): LocalWorkspaceStarter {
  return async () => {
    const service: RunningService = await startService({ dataDir: join(workspaceDir, 'service'), host: '127.0.0.1', port: 0 });
    try {
      const seed = await seedDemo(service.db);
      const org = await getOrganization(service.db, seed.orgId);
      return {
        serviceUrl: service.url,
        orgId: seed.orgId,
        apiKey: seed.adminKey,
        organizationName: org?.name ?? seed.orgId,
        region: org?.region ?? 'NA',
        close: () => service.close(),
      };
    } catch (err) {
      await service.close();
      throw err;
    }
  };
}
