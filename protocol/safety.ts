import { z } from 'zod';

/**
 * The safety function's resource (docs/device-protocol.md, "The safety function"): what a device
 * says about its E-stop and its trips, observable, so a host running the function test after an
 * apply sees the press on the E-stop and the trip on each receiver as they happen.
 */
export const SAFETY_RESOURCE = 'safety';

/** GET /safety (CBOR, observable). Counters only go up while the device runs; they start at 0 at each boot. */
export const safetyStatusSchema = z.object({
  /** Presses of this device's E-stop since it booted. */
  presses: z.number().int().min(0),
  lastPressAt: z.string().nullable(),
  /** Trips of this device's outputs by another device of its configuration since it booted. */
  trips: z.number().int().min(0),
  lastTripAt: z.string().nullable(),
  /** The serial number whose E-stop caused the last trip. */
  trippedBy: z.string().nullable(),
  /** The configuration the device runs (its applied file's configurationId), null for none. */
  configurationId: z.string().nullable(),
});
export type SafetyStatus = z.infer<typeof safetyStatusSchema>;
