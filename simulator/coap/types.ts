import type { CoapMessage, CoapOption } from '../../protocol/coap';

/** A request as the simulated device's server received it (the host's side is main/devices' CoapRequest). */
export interface ReceivedRequest {
  /** Who sent it: 'link' on serial and BLE, 'address:port' on UDP. */
  peer: string;
  message: CoapMessage;
  /** '0.01' GET, '0.02' POST, '0.03' PUT, ... */
  method: string;
  /** Uri-Path segments joined by '/', no leading slash. */
  path: string;
}

/** What a resource answers; the server encodes it, adding Block2 and Observe itself. */
export interface ResourceResponse {
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
export type RequestHandler = (request: ReceivedRequest) => Promise<ResourceResponse | undefined>;
