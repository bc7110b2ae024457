import { join } from 'node:path';
import type { DeviceType } from '../../../../../domain/device-types';
import { createServiceClient, type ServiceClient } from '../../../../../main/cloud';
import { startSimulatedWorkbench } from '../../../../../main/hosts/web/simulated-workbench';
import { deviceKeys, startWebModePage, type WebModePage, type WebModeSetup } from './web-mode-page';

/** Web mode on the local workspace, simulated devices on ptys it finds by glob, and Debian's chromium on its page. */
export interface WorkbenchPage extends WebModePage {
  client: ServiceClient;
}

/** One simulated device of each type given, under `<dir>/workbench`, trusting the workspace's keys; stopped on close. */
export async function startWorkspaceWorkbench(setup: WebModeSetup, types: readonly DeviceType[]): Promise<void> {
  const workbench = await startSimulatedWorkbench({
    dir: join(setup.dir, 'workbench'),
    ...(await deviceKeys(setup.workspace.serviceUrl)),
    types,
  });
  setup.stopOnClose(() => workbench.stop());
}

/** The devices' ptys as startWorkspaceWorkbench makes them, polled often so a device shows soon after it attaches. */
export const WORKBENCH_DEVICES = { ptyDir: join('workbench', 'pty'), pollIntervalMs: 300 };

export async function startWorkbenchPage(options: {
  name: string;
  types: readonly DeviceType[];
  /** Runs against the workspace's service before the page opens (register devices, build configurations). */
  prepare?: (client: ServiceClient) => Promise<void>;
}): Promise<WorkbenchPage> {
  // Made in prepare, once the workspace runs; a property, as TypeScript does not follow assignments in callbacks.
  const made: { client?: ServiceClient } = {};
  const world = await startWebModePage({
    name: options.name,
    devices: WORKBENCH_DEVICES,
    fullPageShots: true,
    prepare: async (setup) => {
      await startWorkspaceWorkbench(setup, options.types);
      const { workspace } = setup;
      made.client = createServiceClient({
        baseUrl: workspace.serviceUrl,
        orgId: workspace.orgId,
        apiKey: workspace.apiKey,
      });
      await options.prepare?.(made.client);
      await setup.core.session.useLocalWorkspace();
    },
  });
  if (!made.client) throw new Error('The workbench page started without its service client.');
  return { ...world, client: made.client };
}
