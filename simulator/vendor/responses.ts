import { CODE } from '../../protocol/coap';
import { VENDOR_CONTENT_FORMAT } from '../../protocol/vendor';
import type { ResourceResponse } from '../coap/types';

/** Vendor devices answer in plain text, refusals too: the vendor's tool prints what comes back. */
export function textResponse(code: string, text: string): ResourceResponse {
  return { code, contentFormat: VENDOR_CONTENT_FORMAT.text, payload: new TextEncoder().encode(text) };
}

export const changed = (text = ''): ResourceResponse =>
  text === '' ? { code: CODE.CHANGED } : textResponse(CODE.CHANGED, text);
export const badRequest = (text: string): ResourceResponse => textResponse(CODE.BAD_REQUEST, text);
export const notFound = (text: string): ResourceResponse => textResponse(CODE.NOT_FOUND, text);
