import { z } from 'zod';
import { deviceTypeSchema, type DeviceType } from '../domain/device-types';
import { command, noInput, query } from './channel-spec';

export interface CachedFirmwareView {
  deviceType: DeviceType;
  version: string;
  sha256: string;
  size: number;
  storedAt: string | null;
}

export interface FirmwareTypeView {
  deviceType: DeviceType;
  /** Latest version the service offers; null when it has none or could not be asked (see `error`). */
  latestVersion: string | null;
  cached: CachedFirmwareView[];
  latestCached: boolean;
  error: string | null;
}

/** The firmware the service offers per device type, and the copies in the cache. */
export const FIRMWARE_CHANNELS = {
  'firmware.overview': query(noInput).returns<FirmwareTypeView[]>(),
  'firmware.download': command(z.object({ deviceType: deviceTypeSchema }).strict()).returns<CachedFirmwareView>(),
} as const;
export type FirmwareChannel = keyof typeof FIRMWARE_CHANNELS;
