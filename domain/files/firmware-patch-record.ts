import { z } from 'zod';
import { deviceTypeSchema } from '../device-types';

/**
 * A firmware patch the service offers (ours, an extension of the firmware operations): from an
 * earlier release of a device type to its latest. Hashes are of the images, as devices report them.
 */
export const firmwarePatchRecordSchema = z.object({
  deviceType: deviceTypeSchema,
  fromVersion: z.string(),
  toVersion: z.string(),
  /** SHA-256 (hex) of the image the patch applies to: the device must run exactly it. */
  baseSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** SHA-256 (hex) of the image it builds: the latest release's image. */
  targetSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The patch's bytes, before the transfer deflates it. */
  size: z.number().int().positive(),
});
export type FirmwarePatchRecord = z.infer<typeof firmwarePatchRecordSchema>;
