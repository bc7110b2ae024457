import type { ServiceClient } from '../../cloud';
import { decodeConfigFile } from '../../../domain/files/config-file';
import { cachedPatches } from '../../engine/cache/cached-patches';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import { prefetchBundlesAndKeys } from '../../engine/cache/prefetch';
import type { ConfigFileStore } from '../../engine/jobs/config-file-store';
import type { CacheChannel } from '../../../contract/index';
import type { HandlerGroup } from './types';

export interface CacheHandlerDeps {
  cache: FirmwareCache;
  /** The account's kept configuration files. */
  configFiles: () => ConfigFileStore;
  /** The account's client, for a prefetch. */
  client: () => Promise<ServiceClient>;
  /** Before the cache is changed (prefetch, prune): throws for an account whose role may not download files. */
  admitChange?: () => void;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The offline cache as a host lists, fills and prunes it (the CLI's `cache list|prefetch|prune`). */
export function cacheHandlers(deps: CacheHandlerDeps): HandlerGroup<CacheChannel> {
  return {
    'cache.contents': async () => {
      const firmware = await deps.cache.list();
      const patches = await cachedPatches(deps.cache, firmware);
      const configurationFiles = await deps.configFiles().list();
      return { firmware, patches, configurationFiles };
    },
    'cache.prefetch': async (input) => {
      deps.admitChange?.();
      const client = await deps.client();
      const report = await prefetchBundlesAndKeys(deps.cache, client, input.deviceTypes);
      const store = deps.configFiles();
      const configurationFiles: string[] = [];
      const failedConfigurationFiles: Array<{ serialNumber: string; message: string }> = [];
      // Named types take firmware only: the configuration files are for a whole trip.
      if (!input.deviceTypes) {
        for await (const device of client.devices.listAll()) {
          if (device.configurationId === null) continue;
          try {
            const file = await client.devices.fetchConfigurationFile(device.serialNumber);
            await store.put(device.serialNumber, file.bytes, decodeConfigFile(file.bytes).syncId);
            configurationFiles.push(device.serialNumber);
          } catch (error) {
            // A configuration not complete yet has no file: said, and the others are taken.
            failedConfigurationFiles.push({ serialNumber: device.serialNumber, message: messageOf(error) });
          }
        }
      }
      const key = await client.signingKey().catch(() => undefined);
      return {
        fetched: report.fetched,
        upToDate: report.upToDate,
        patches: report.patches,
        failedFirmware: report.failed.map((f) => ({ deviceType: f.deviceType, message: messageOf(f.error) })),
        configurationFiles,
        failedConfigurationFiles,
        signingKey: key !== undefined,
      };
    },
    'cache.prune': async (input) => {
      deps.admitChange?.();
      return deps.cache.prune({ keepPerType: input.keepPerType });
    },
  };
}
