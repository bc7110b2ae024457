import type { DeployStatus } from './enums';

/**
 * The deploy status of a registered device. currentSyncId is the syncId of the configuration file
 * the service serves the device now, and must change whenever that file's content changes; null
 * when the device is in no configuration.
 */
export function deriveDeployStatus(input: {
  lastConfigurationApply: { success: boolean; syncId: string } | null;
  currentSyncId: string | null;
}): DeployStatus {
  const last = input.lastConfigurationApply;
  if (last === null || input.currentSyncId === null) return last !== null && !last.success ? 'Failed' : 'NotDeployed';
  if (!last.success) return 'Failed';
  return last.syncId === input.currentSyncId ? 'Deployed' : 'Outdated';
}
