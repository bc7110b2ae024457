import { downloadBlock2 } from '../coap/block2';
import { DeviceVerificationError } from '../errors';
import type { DeviceSession } from '../session';
import { deviceInfoSchema, decodeResponse, type DeviceInfo } from './payloads';

export interface IdentifyOptions {
  signal?: AbortSignal;
  /** Fewer retransmissions, for polls repeated anyway (waiting for a reboot). */
  maxRetransmit?: number;
  /** The whole answer, every block, ends by then. Default BLOCK2_DEADLINE_MS. */
  deadlineMs?: number;
}

/**
 * An /info answer is a few hundred bytes of CBOR (docs/device-protocol.md §3.2): a device that
 * sends more is broken or hostile, and is refused long before it costs memory.
 */
export const DEVICE_INFO_MAX_BYTES = 4096;

/** GET /info: who the device is and what it takes. Errors name it by serial number from then on. */
export async function identify(session: DeviceSession, options: IdentifyOptions = {}): Promise<DeviceInfo> {
  const step = 'info request';
  const { payload, response } = await downloadBlock2(session.engine, {
    path: 'info',
    step,
    signal: options.signal,
    maxRetransmit: options.maxRetransmit,
    maxBytes: DEVICE_INFO_MAX_BYTES,
    deadlineMs: options.deadlineMs,
  });
  const info = decodeResponse(
    deviceInfoSchema,
    { ...response, message: { ...response.message, payload } },
    session.context(step),
  );
  if (session.expectedSerialNumber !== undefined && info.serialNumber !== session.expectedSerialNumber) {
    throw new DeviceVerificationError(
      'DEVICE_MISMATCH',
      session.context(step),
      `device ${info.serialNumber} answered where ${session.expectedSerialNumber} was expected`,
    );
  }
  session.expectedSerialNumber = info.serialNumber;
  session.engine.deviceName = info.serialNumber;
  session.info = info;
  return info;
}
