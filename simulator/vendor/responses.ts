import { CODE } from '../../protocol/coap';
import { VENDOR_CONTENT_FORMAT } from '../../protocol/vendor';
import type { CoapResponse } from '../coap/types';

/** Vendor devices answer in plain text, refusals too: the vendor's tool prints what comes back. */
export function textResponse(code: string, text: string): CoapResponse {
  return { code, contentFormat: VENDOR_CONTENT_FORMAT.text, payload: new TextEncoder().encode(text) };
}

export const changed = (text = ''): CoapResponse => (text === '' ? { code: CODE.CHANGED } : textResponse(CODE.CHANGED, text));
export const badRequest = (text: string): CoapResponse => textResponse(CODE.BAD_REQUEST, text);
export const notFound = (text: string): CoapResponse => textResponse(CODE.NOT_FOUND, text);
