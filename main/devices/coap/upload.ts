import type { CoapOption } from '../../../protocol/coap/codec';
import type { CoapResponse } from './messages';

/** What a block-wise upload is asked (block1.ts, q-block1.ts) and what it ends with. */
export interface Block1UploadOptions {
  path: string;
  data: Uint8Array;
  /** Start here: the device's acknowledged offset, a multiple of blockSize. */
  startOffset?: number;
  /** Bytes per block: 16, 32, … 1024. */
  blockSize: number;
  /** Requests in flight at once; 1 is RFC 7959's lock-step. */
  window: number;
  /** Names blocks in errors: 'firmware' gives 'firmware block 37 (offset 37888)'. */
  what: string;
  /** Send Size1 (the total length) with block 0 (RFC 7959 §4). */
  size1?: boolean;
  /** Options sent with every block besides Uri-Path and Block1. */
  options?: CoapOption[];
  method?: string;
  signal?: AbortSignal;
  /** Called whenever the acknowledged prefix grows, with its length in bytes. */
  onProgress?: (acknowledged: number) => void;
  /**
   * The device takes Q-Block1 (its /info says `qBlock1`): on UDP the body then goes in RFC 9177
   * payload sets (q-block1.ts), and in Block1 if the device answers the first one with 4.02.
   */
  qBlock1?: boolean;
  /** Blocks per Q-Block1 payload set: the device's MAX_PAYLOADS from /info. Default Q_BLOCK_MAX_PAYLOADS. */
  qBlock1MaxPayloads?: number;
}

export interface Block1UploadResult {
  /** The final response: the one for the block that completed the upload. */
  response: CoapResponse;
  /** The block size in use at the end (the device may have asked for smaller blocks). */
  blockSize: number;
}
