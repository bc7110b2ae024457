import { encodeCbor } from '../../domain/files/cbor';
import { CONTENT_FORMAT_CBOR, DEVICE_ERROR_RESPONSE_CODE, type AnyDeviceErrorCode } from '../../protocol/constants';
import type { CoapOption } from '../../protocol/coap';
import type { ResourceResponse } from '../coap/types';

/**
 * A refusal a resource answers with: the CoAP code comes from the protocol's table, the payload is
 * `{ code, message, ...fields }` (docs/device-protocol.md section 6). The message says what a
 * technician should do; hosts decide on `code`.
 */
export class DeviceError extends Error {
  constructor(
    readonly code: AnyDeviceErrorCode,
    message: string,
    readonly fields: Record<string, unknown> = {},
    readonly options: CoapOption[] = [],
  ) {
    super(message);
    this.name = 'DeviceError';
  }
}

export function errorResponse(error: DeviceError): ResourceResponse {
  return {
    code: DEVICE_ERROR_RESPONSE_CODE[error.code],
    contentFormat: CONTENT_FORMAT_CBOR,
    payload: encodeCbor({ code: error.code, message: error.message, ...error.fields }),
    options: error.options,
  };
}

export function cborResponse(code: string, value: unknown, extra: Partial<ResourceResponse> = {}): ResourceResponse {
  return { code, contentFormat: CONTENT_FORMAT_CBOR, payload: encodeCbor(value), ...extra };
}
