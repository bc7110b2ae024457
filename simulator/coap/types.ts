import type { CoapMessage, CoapOption } from '../../protocol/coap';

export interface CoapRequest {
  /** Who sent it: 'link' on serial and BLE, 'address:port' on UDP. */
  peer: string;
  message: CoapMessage;
  /** '0.01' GET, '0.02' POST, '0.03' PUT, ... */
  method: string;
  /** Uri-Path segments joined by '/', no leading slash. */
  path: string;
}

export interface CoapResponse {
  code: string;
  contentFormat?: number;
  payload?: Uint8Array;
  /** Options besides Content-Format, Block2 and Observe, which the server adds itself. */
  options?: CoapOption[];
  /** The resource is observable: a GET with Observe 0 registers its sender, Observe 1 removes it. */
  observable?: boolean;
  /** Runs once the response is on its way, before the next request is handled (a reboot). */
  after?: () => Promise<void>;
}

/** undefined: no response, and the request counts as never received (a pulled cable swallowed it). */
export type RequestHandler = (request: CoapRequest) => Promise<CoapResponse | undefined>;
