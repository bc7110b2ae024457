import { contentFormatOption, type CoapOption } from '../../../protocol/coap/codec';
import { CODE, OPTION } from '../../../protocol/coap/parameters';
import type { CoapResponse } from '../coap/engine';
import { deviceErrorFromResponse } from '../coap/engine';
import type { DeviceSession } from '../session';

/**
 * The vendor's requests as its tool makes them (docs/vendor-devices.md): GET and POST only, on a
 * path that may carry one Uri-Query (`fs/metadata?computed`, `cfg/setup/pairedDeviceName?3`).
 * Values are read with protocol/vendor's decodeVendorValue.
 */

/** 'fs/metadata?computed' → the path and its Uri-Query option. */
export function splitQuery(path: string): { path: string; options: CoapOption[] } {
  const mark = path.indexOf('?');
  if (mark < 0) return { path, options: [] };
  return {
    path: path.slice(0, mark),
    options: [{ number: OPTION.URI_QUERY, value: new TextEncoder().encode(path.slice(mark + 1)) }],
  };
}

export interface VendorRequestOptions {
  signal?: AbortSignal;
  maxRetransmit?: number;
  step?: string;
}

/** GET; a 4.xx/5.xx answer throws DeviceError naming the path. */
export async function vendorGet(
  session: DeviceSession,
  path: string,
  options: VendorRequestOptions = {},
): Promise<CoapResponse> {
  const split = splitQuery(path);
  return session.engine.request({
    method: CODE.GET,
    path: split.path,
    options: split.options,
    step: options.step ?? `GET ${path}`,
    signal: options.signal,
    maxRetransmit: options.maxRetransmit,
  });
}

/** POST with a payload and, when given, its Content-Format (the tool sends none on fs/metadata). */
export async function vendorPost(
  session: DeviceSession,
  path: string,
  payload: Uint8Array,
  options: VendorRequestOptions & { contentFormat?: number } = {},
): Promise<CoapResponse> {
  const split = splitQuery(path);
  return session.engine.request({
    method: CODE.POST,
    path: split.path,
    options: [
      ...split.options,
      ...(options.contentFormat === undefined ? [] : [contentFormatOption(options.contentFormat)]),
    ],
    payload,
    step: options.step ?? `POST ${path}`,
    signal: options.signal,
    maxRetransmit: options.maxRetransmit,
  });
}

export function textOf(response: CoapResponse): string {
  return new TextDecoder().decode(response.message.payload);
}

/** A 2.xx answer or a DeviceError that names the path. */
export function expectSuccess(
  response: CoapResponse,
  context: Parameters<typeof deviceErrorFromResponse>[1],
): CoapResponse {
  if (!response.code.startsWith('2.')) throw deviceErrorFromResponse(response, context);
  return response;
}
