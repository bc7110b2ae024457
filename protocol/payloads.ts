import { z } from 'zod';
import { FIRMWARE_STATES } from './constants';

// The CBOR payloads of the device resources (docs/device-protocol.md §3), as both ends read them:
// the host parses what a device answers with these, and the simulator types what it sends by them.

/** GET /info (docs/device-protocol.md §3.2). Unknown fields are ignored. */
export const deviceInfoSchema = z.object({
  protocol: z.number().int(),
  serialNumber: z.string().min(1),
  deviceType: z.string(),
  model: z.string(),
  firmwareVersion: z.string(),
  configSyncId: z.string().nullable(),
  maxBlockSize: z.number().int().min(16),
  maxInFlight: z.number().int().min(1),
  bootId: z.union([z.number(), z.string()]),
  state: z.string(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

/** POST /fw response (§3.3). */
export const announceResponseSchema = z.object({
  offset: z.number().int().min(0),
  blockSize: z.number().int().min(16),
});
export type AnnounceResponse = z.infer<typeof announceResponseSchema>;

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'bytes');

/** GET /fw (§3.4). */
export const firmwareStatusSchema = z.object({
  state: z.enum(FIRMWARE_STATES),
  size: z.number().int().nullable(),
  received: z.number().int(),
  sha256: bytes.nullable(),
  version: z.string().nullable(),
  error: z.string().nullable(),
});
export type FirmwareStatus = z.infer<typeof firmwareStatusSchema>;

/** GET /config (§3.7). */
export const configStatusSchema = z.object({
  syncId: z.string().nullable(),
  appliedAt: z.string().nullable(),
  blank: z.boolean(),
});
export type ConfigStatus = z.infer<typeof configStatusSchema>;

/** The 2.04 of a completed configuration upload (§3.8). */
export const configAppliedSchema = z.object({ syncId: z.string() });
export type ConfigApplied = z.infer<typeof configAppliedSchema>;
