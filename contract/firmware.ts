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

/** A patch the cache keeps: a device on `fromVersion` gets it instead of the whole image. Null: a release the cache does not hold. */
export interface CachedPatchView {
  fromVersion: string | null;
  toVersion: string | null;
  size: number;
}

export interface FirmwareTypeView {
  deviceType: DeviceType;
  /** Latest version the service offers; null when it has none or could not be asked (see `error`). */
  latestVersion: string | null;
  cached: CachedFirmwareView[];
  /** Patches between releases of this type in the cache. */
  patches: CachedPatchView[];
  latestCached: boolean;
  error: string | null;
}

/** The firmware the service offers per device type, and the copies in the cache. */
export const FIRMWARE_CHANNELS = {
  'firmware.overview': query(noInput).returns<FirmwareTypeView[]>(),
  'firmware.download': command(z.object({ deviceType: deviceTypeSchema }).strict()).returns<CachedFirmwareView>(),
} as const;
export type FirmwareChannel = keyof typeof FIRMWARE_CHANNELS;
