import { decodeCbor } from '../../../domain/files/cbor';
import { DeviceError, type DeviceErrorContext } from '../errors';
import type { CoapResponse } from './messages';

/** A 4.xx/5.xx response as a DeviceError: the CBOR `{ code, message }` when present, else the CoAP code. */
export function deviceErrorFromResponse(response: CoapResponse, context: DeviceErrorContext): DeviceError {
  let code = `COAP_${response.code}`;
  let message = '';
  let details: Record<string, unknown> = {};
  const payload = response.message.payload;
  if (payload.length > 0) {
    try {
      const decoded = decodeCbor(payload);
      if (typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded)) {
        const { code: c, message: m, ...rest } = decoded as Record<string, unknown>;
        if (typeof c === 'string') code = c;
        if (typeof m === 'string') message = m;
        details = rest;
      }
    } catch {
      // Not CBOR: a generic CoAP peer's diagnostic payload (RFC 7252 §5.5.2) is text.
      message = Buffer.from(payload).toString('utf8');
    }
  }
  return new DeviceError(code, response.code, message, context, details);
}
