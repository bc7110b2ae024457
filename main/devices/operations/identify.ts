import { downloadBlock2 } from '../coap/block2';
import { DeviceVerificationError } from '../errors';
import type { DeviceSession } from '../session';
import { deviceInfoSchema, parsePayload, type DeviceInfo } from './payloads';

export interface IdentifyOptions {
  signal?: AbortSignal;
  /** Fewer retransmissions, for polls repeated anyway (waiting for a reboot). */
  maxRetransmit?: number;
}

/** GET /info: who the device is and what it takes. Errors name it by serial number from then on. */
export async function identify(session: DeviceSession, options: IdentifyOptions = {}): Promise<DeviceInfo> {
  const step = 'info request';
  const { payload, response } = await downloadBlock2(session.engine, { path: 'info', step, signal: options.signal, maxRetransmit: options.maxRetransmit });
  const info = parsePayload(deviceInfoSchema, { ...response, message: { ...response.message, payload } }, session.context(step));
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
