import { z } from 'zod';
import { FIRMWARE_STATES } from './constants';

// The CBOR payloads of the device resources (docs/device-protocol.md §3), as both ends read them:
// the host parses what a device answers with these, and the simulator types what it sends by them.

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'bytes');

/** One content coding a device can decode (§3.2 `codings`); names it does not know a host ignores. */
export const advertisedCodingSchema = z.object({ name: z.string(), windowBits: z.number().int().optional() });

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
  /** The device takes Q-Block1 (RFC 9177, option 19) on its Block1 resources; absent: Block1 only. */
  qBlock1: z.boolean().optional(),
  /**
   * With qBlock1: the device's MAX_PAYLOADS, the blocks of one payload set (§2.2); the host sends
   * sets of this many. Absent: Q_BLOCK_MAX_PAYLOADS (128), what devices said nothing about before.
   */
  qBlock1MaxPayloads: z.number().int().min(1).max(4096).optional(),
  /** Content codings the device decodes besides identity (§3.3 "Content codings"); absent: identity only. */
  codings: z.array(advertisedCodingSchema).optional(),
  /** SHA-256 of the image in the running slot, when the device knows it: the base a patch must name. */
  imageSha256: bytes.nullable().optional(),
  /**
   * The device takes the short announce (§3.3): the signed manifest and the coding only, the size,
   * SHA-256, version and device type read from the manifest. Absent: the full announce.
   */
  manifestAnnounce: z.boolean().optional(),
  /**
   * The device handles PUT /fw/data blocks that arrive right behind a POST /fw, before its answer,
   * once that announce is decided (§3.5): the host may send its first window without waiting.
   */
  blocksBehindAnnounce: z.boolean().optional(),
  bootId: z.union([z.number(), z.string()]),
  state: z.string(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

/**
 * The `coding` of an announce (§3.3 "Content codings"): the bytes of PUT /fw/data are the image
 * deflated ("deflate") or a deflated patch from the running image ("delta"), `size` of them.
 */
export const announcedCodingSchema = z.object({
  name: z.enum(['deflate', 'delta']),
  /** Bytes on the wire: the coded stream's length. */
  size: z.number().int().positive(),
  windowBits: z.number().int().min(9).max(15),
  /** delta: SHA-256 of the image the patch applies to, which must be the running image. */
  baseSha256: bytes.refine((value) => value.length === 32, '32 bytes').optional(),
});
export type AnnouncedCoding = z.infer<typeof announcedCodingSchema>;

/**
 * POST /fw request (§3.3): the image announced and the signed firmware manifest that vouches for
 * it (§8.3). The plain fields must equal the manifest's; a device trusts only the manifest.
 */
export const firmwareAnnouncementSchema = z.object({
  size: z.number().int().positive(),
  sha256: bytes.refine((value) => value.length === 32, '32 bytes'),
  version: z.string().min(1).max(32),
  deviceType: z.string(),
  /** The signed firmware manifest; optional in the schema so that its absence is FW_UNSIGNED, not BAD_REQUEST. */
  signedManifest: bytes.optional(),
  /** Absent: identity, the image's own bytes. */
  coding: announcedCodingSchema.optional(),
});
export type FirmwareAnnouncement = z.infer<typeof firmwareAnnouncementSchema>;

/**
 * The short POST /fw request (§3.3), for a device that says `manifestAnnounce`: the signed
 * manifest alone names the image (its size, SHA-256, version and device type are the manifest's
 * fixed fields), so the plain fields, 80 bytes that only repeat it, are left out.
 */
export const shortFirmwareAnnouncementSchema = z.object({
  signedManifest: bytes,
  coding: announcedCodingSchema.optional(),
});
export type ShortFirmwareAnnouncement = z.infer<typeof shortFirmwareAnnouncementSchema>;

/** POST /fw response (§3.3). */
export const announceResponseSchema = z.object({
  offset: z.number().int().min(0),
  blockSize: z.number().int().min(16),
});
export type AnnounceResponse = z.infer<typeof announceResponseSchema>;

/** GET /fw (§3.4). */
export const firmwareStatusSchema = z.object({
  state: z.enum(FIRMWARE_STATES),
  size: z.number().int().nullable(),
  received: z.number().int(),
  sha256: bytes.nullable(),
  version: z.string().nullable(),
  error: z.string().nullable(),
  /** While a coded upload runs: its coding and the coded bytes in (`received` counts decoded image bytes). */
  coding: z.string().optional(),
  wireReceived: z.number().int().optional(),
});
export type FirmwareStatus = z.infer<typeof firmwareStatusSchema>;

/**
 * GET /config (§3.7). `sequence`, `orgId` and `orgKeyId` (the applied file's sequence and the
 * organization key the device is claimed by) are absent from devices made before files carried
 * them: the host then leaves those checks to the device.
 */
export const configStatusSchema = z.object({
  syncId: z.string().nullable(),
  appliedAt: z.string().nullable(),
  blank: z.boolean(),
  sequence: z.number().int().nullish(),
  orgId: z.string().nullish(),
  orgKeyId: z.string().nullish(),
});
export type ConfigStatus = z.infer<typeof configStatusSchema>;

/**
 * The 2.04 of a completed configuration upload (§3.8). `unchanged`: the file is the one applied
 * already; the device changed nothing and does not restart.
 */
export const configAppliedSchema = z.object({ syncId: z.string(), unchanged: z.boolean().optional() });
export type ConfigApplied = z.infer<typeof configAppliedSchema>;
