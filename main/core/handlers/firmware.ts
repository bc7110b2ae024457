import { DEVICE_TYPES } from '../../../domain/device-types';
import { FileFormatError } from '../../../domain/files/file-error';
import { cachedPatches } from '../../engine/cache/cached-patches';
import { keepLatestFirmware } from '../../engine/cache/keep-latest-firmware';
import type { CacheEntry, FirmwareCache } from '../../engine/cache/firmware-cache';
import {
  CoreError,
  type CachedFirmwareView,
  type FirmwareChannel,
  type FirmwareTypeView,
} from '../../../contract/index';
import { toCoreError } from '../errors';
import type { AccountSession } from '../account-session';
import type { HandlerGroup } from './types';

function cachedView(entry: CacheEntry): CachedFirmwareView {
  return {
    deviceType: entry.deviceType,
    version: entry.version,
    sha256: entry.sha256,
    size: entry.size,
    storedAt: entry.fetchedAt,
  };
}

/** Latest firmware per type from the service, beside what the offline cache holds. */
export function firmwareHandlers(session: AccountSession, cache: FirmwareCache): HandlerGroup<FirmwareChannel> {
  return {
    'firmware.overview': async () => {
      const account = session.require();
      const cached = await cache.list();
      const kept = await cachedPatches(cache, cached);
      return Promise.all(
        DEVICE_TYPES.map(async (deviceType): Promise<FirmwareTypeView> => {
          const mine = cached.filter((e) => e.deviceType === deviceType).map(cachedView);
          const patches = kept
            .filter((p) => p.deviceType === deviceType)
            .map(({ fromVersion, toVersion, size }) => ({ fromVersion, toVersion, size }));
          try {
            const latest = await account.client.devices.firmwareVersionByType(deviceType, { retry: false });
            return {
              deviceType,
              latestVersion: latest.version,
              cached: mine,
              patches,
              latestCached: mine.some((c) => c.version === latest.version),
              error: null,
            };
          } catch (err) {
            const core = toCoreError(err);
            // No firmware of that type in the organization is an answer, not an error to shout about.
            const error = core.code === 'NOT_FOUND' ? null : core.message;
            return { deviceType, latestVersion: null, cached: mine, patches, latestCached: false, error };
          }
        }),
      );
    },
    'firmware.download': async (input) => {
      const account = session.require('files.download');
      try {
        // The same policy as the CLI's download and a prefetch: checked before it is kept, with its patches.
        const kept = await keepLatestFirmware(cache, account.client, { deviceType: input.deviceType });
        return cachedView(kept.entry);
      } catch (err) {
        if (err instanceof FileFormatError) {
          // What the service sent, not what the technician typed: its check's code travels as the violation's.
          const message = `The firmware the service sent was refused and nothing was kept: ${err.message}`;
          throw new CoreError('SERVICE_ERROR', message, [{ code: err.code, field: '', message: err.message }]);
        }
        throw toCoreError(err);
      }
    },
  };
}
