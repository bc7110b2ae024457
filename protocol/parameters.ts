import { z } from 'zod';

/**
 * The running parameters resource (docs/device-protocol.md, "Running parameters"): the safety and
 * link parameters a device runs, as its firmware decoded and stored them from the applied
 * configuration file (not the file's bytes echoed back), and the parameter checksum it computes
 * over them. The keys, the canonical encoding and the checksum are domain/running-parameters.ts.
 */
export const PARAMETERS_RESOURCE = 'params';

/** A parameter's value on the wire: text, an integer, a flag, or null (unset). */
const parameterValueSchema = z.union([z.string(), z.number().int(), z.boolean(), z.null()]);

/** GET /params (CBOR). */
export const runningParametersPayloadSchema = z.object({
  /** The syncId of the file the values were decoded from, null when none was ever applied. */
  syncId: z.string().nullable(),
  /** Every parameter the device runs, by key. */
  values: z.record(z.string(), parameterValueSchema),
  /** SHA-256 of the canonical encoding of `values`, as the device computes it (32 bytes). */
  checksum: z
    .custom<Uint8Array>((value) => value instanceof Uint8Array, 'the checksum is a byte string')
    .refine((bytes) => bytes.length === 32, 'the checksum is 32 bytes (SHA-256)'),
});
export type RunningParametersPayload = z.infer<typeof runningParametersPayloadSchema>;

/**
 * The largest /params answer a host takes. A few dozen short values, but `device.peers` names every
 * peer: a receiver of a 300-device configuration answers about 12 KiB, which 8 KiB refused (the
 * soak bench, issue 30). The answer says what a configuration file holds, so it is bounded as the
 * largest file a device takes is (64 KiB, the simulated device's `maxConfigSize`).
 */
export const PARAMETERS_MAX_BYTES = 64 * 1024;
