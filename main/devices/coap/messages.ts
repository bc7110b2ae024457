import type { CoapMessage, CoapOption } from '../../../protocol/coap/codec';

/** A request the host's CoAP engine sends (engine.ts), and the response it resolves with. */
export interface CoapRequest {
  /** CODE.GET, CODE.POST, CODE.PUT, CODE.DELETE. */
  method: string;
  path: string;
  /** Options besides Uri-Path. */
  options?: CoapOption[];
  payload?: Uint8Array;
  /** What the request does, for error messages: 'info request', 'firmware block 37 (offset 37888)'. */
  step: string;
  signal?: AbortSignal;
  /** Reuse a token (Observe deregistration must use the registration's token). */
  token?: Uint8Array;
  /** Resolve with 4.xx/5.xx responses instead of rejecting with DeviceError. */
  acceptErrors?: boolean;
  /** Fewer retransmissions than MAX_RETRANSMIT, for polls that are repeated anyway. */
  maxRetransmit?: number;
  /** Another request follows at once (a windowed upload): passed to the link as a send hint. */
  moreFollows?: boolean;
}

export interface CoapResponse {
  code: string;
  message: CoapMessage;
}
