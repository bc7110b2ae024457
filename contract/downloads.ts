import { z } from 'zod';
import { deviceTypeSchema, type DeviceType } from '../domain/device-types';
import { command } from './channel-spec';
import { serialNumber } from './inputs';

/**
 * A downloaded file that the checks a job makes before sending refused: nothing was kept. `code`
 * is the check's (FW_UNTRUSTED_KEY, CONFIG_WRONG_ORGANIZATION, …), `message` its English.
 */
export interface DownloadRefused {
  outcome: 'refused';
  code: string;
  message: string;
}

/** The latest firmware bundle, checked as a firmware job checks it and kept in the offline cache. */
export interface CheckedFirmwareDownload {
  outcome: 'checked';
  /** The bundle whole, for the host to save where the person asked. */
  bytes: Uint8Array;
  deviceType: DeviceType;
  version: string;
  size: number;
  /** The whole bundle's SHA-256 (hex). */
  sha256: string;
  /** The release key whose signature verified. */
  signedBy: { keyId: string; name: string };
}

/** A device's configuration file, checked as a configuration job checks it and kept for offline use. */
export interface CheckedConfigurationFileDownload {
  outcome: 'checked';
  /** The file whole, for the host to save where the person asked. */
  bytes: Uint8Array;
  serialNumber: string;
  /** The service's syncId for it (the file's own when the service sent none). */
  syncId: string;
  /** A blank file: it resets the device's configuration. */
  blank: boolean;
  size: number;
  sha256: string;
}

/**
 * Files downloaded for a person to carry (the CLI's `device firmware download` and `device
 * configuration download`): checked before anything is kept, kept for offline use, answered whole.
 * A refusal is an answer (`DownloadRefused`), said in the host's language; so is a service whose
 * root key is not known (`rootKeyUnknown`: the file's signature cannot be checked).
 */
export const DOWNLOAD_CHANNELS = {
  /** The latest bundle for a device (by serial number) or a type. */
  'downloads.firmware': command(
    z
      .object({ serialNumber: serialNumber.optional(), deviceType: deviceTypeSchema.optional() })
      .strict()
      .refine((input) => (input.serialNumber === undefined) !== (input.deviceType === undefined), {
        message: 'name either serialNumber (a device) or deviceType, not both',
      }),
  ).returns<CheckedFirmwareDownload | DownloadRefused>(),
  'downloads.configurationFile': command(z.object({ serialNumber }).strict()).returns<
    CheckedConfigurationFileDownload | DownloadRefused | { outcome: 'rootKeyUnknown' }
  >(),
} as const;
export type DownloadChannel = keyof typeof DOWNLOAD_CHANNELS;
