import { configurationDiff, type ConfiguredSettings, type SettingChange } from '../../domain/configuration-diff';
import { decodeConfigFile, type ConfigFileContent } from '../../domain/files';
import type { ServiceClient } from '../cloud';
import { ServiceError } from '../cloud/errors';
import type { ConfigFileStore } from '../engine/jobs/config-file-store';

/**
 * What applying a device's next configuration file would change, in a technician's words: the file
 * the device was last confirmed with (its deployedSyncId) against the one the service issues now.
 * The applied side comes from the copy kept here when it is that syncId's, else from the service's
 * record of what that syncId set; only when neither knows it is every setting listed as new.
 * Nothing is applied and nothing is kept.
 */
export interface ConfigurationChangePlan {
  serialNumber: string;
  /** The syncId the service last recorded as applied; null when none was. */
  appliedSyncId: string | null;
  /** The syncId of the file an apply would send now. */
  syncId: string;
  /** Where the applied settings were read from; null when they are not known (or none were applied). */
  appliedFrom: 'kept copy' | 'service' | null;
  inSync: boolean;
  changes: SettingChange[];
}

export async function planConfigurationChange(input: {
  client: ServiceClient;
  store: ConfigFileStore;
  serialNumber: string;
  signal?: AbortSignal;
}): Promise<ConfigurationChangePlan> {
  const { client, serialNumber } = input;
  const call = input.signal ? { signal: input.signal } : {};
  const record = (await client.devices.list({ serial: serialNumber }, call)).items.find(
    (d) => d.serialNumber === serialNumber,
  );
  const appliedSyncId = record?.deployedSyncId ?? null;
  const next = decodeConfigFile((await client.devices.fetchConfigurationFile(serialNumber, call)).bytes);
  const inSync = appliedSyncId !== null && appliedSyncId === next.syncId;
  const applied = appliedSyncId === null || inSync ? null : await appliedSettings(input, appliedSyncId, call);
  const changes = inSync ? [] : configurationDiff(applied?.settings ?? null, configuredSettings(next.content));
  return { serialNumber, appliedSyncId, syncId: next.syncId, appliedFrom: applied?.from ?? null, inSync, changes };
}

async function appliedSettings(
  input: { client: ServiceClient; store: ConfigFileStore; serialNumber: string },
  syncId: string,
  call: { signal?: AbortSignal },
): Promise<{ settings: ConfiguredSettings; from: 'kept copy' | 'service' } | null> {
  const kept = await input.store.get(input.serialNumber);
  if (kept && kept.meta.syncId === syncId)
    return { settings: configuredSettings(decodeConfigFile(kept.bytes).content), from: 'kept copy' };
  try {
    const issued = await input.client.devices.issuedSyncId(input.serialNumber, syncId, call);
    return issued.settings
      ? { settings: configuredSettings(issued.settings as unknown as ConfigFileContent), from: 'service' }
      : null;
  } catch (error) {
    // A service from before it kept settings, or a syncId it no longer knows: say the content is unknown.
    if (error instanceof ServiceError && (error.httpStatus === 404 || error.httpStatus === 405)) return null;
    throw error;
  }
}

function configuredSettings(
  content: Pick<ConfigFileContent, 'blank' | 'configurationId' | 'device' | 'peers' | 'safety'>,
): ConfiguredSettings {
  return {
    blank: content.blank,
    configurationId: content.configurationId,
    device: content.device,
    peers: content.peers,
    safety: content.safety,
  };
}
