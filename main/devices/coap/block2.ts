import { DeviceProtocolError } from '../errors';
import { block2Of, block2Option, getOption, type CoapOption } from '../../../protocol/coap/codec';
import type { CoapEngine, CoapResponse } from './engine';
import { CODE, OPTION } from '../../../protocol/coap/parameters';

export interface Block2DownloadOptions {
  path: string;
  /** Ask for blocks of this size (RFC 7959 §2.4 early negotiation); otherwise the device chooses. */
  blockSize?: number;
  options?: CoapOption[];
  /** Names the download in errors: 'info request'. */
  step: string;
  signal?: AbortSignal;
  maxRetransmit?: number;
}

export interface Block2DownloadResult {
  payload: Uint8Array;
  /** The response of the last block (code, Content-Format). */
  response: CoapResponse;
}

function equalOptional(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.compare(a, b) === 0;
}

/**
 * GET with Block2 (RFC 7959 §2.4): fetches block after block until M = 0. The device may answer
 * with a smaller size than asked; the next block number follows from the bytes received so far.
 */
export async function downloadBlock2(engine: CoapEngine, options: Block2DownloadOptions): Promise<Block2DownloadResult> {
  const parts: Uint8Array[] = [];
  let received = 0;
  let size = options.blockSize;
  let etag: Uint8Array | undefined;
  for (let num = 0; ; ) {
    const blockOptions = size === undefined ? [] : [block2Option({ num, more: false, size })];
    const step = num === 0 ? options.step : `${options.step} block ${num}`;
    const response = await engine.request({
      method: CODE.GET,
      path: options.path,
      options: [...blockOptions, ...(options.options ?? [])],
      step,
      signal: options.signal,
      maxRetransmit: options.maxRetransmit,
    });
    const block = block2Of(response.message);
    if (!block) {
      if (num !== 0) throw new DeviceProtocolError(engine.context(step), 'a block-wise download lost its Block2 option');
      return { payload: response.message.payload, response };
    }
    if (block.num * block.size !== received) {
      throw new DeviceProtocolError(engine.context(step), `block ${block.num} of ${block.size} bytes does not start at offset ${received}`);
    }
    const blockEtag = getOption(response.message, OPTION.ETAG);
    if (num === 0) etag = blockEtag;
    else if (!equalOptional(etag, blockEtag)) throw new DeviceProtocolError(engine.context(step), 'the resource changed during a block-wise download (ETag)');
    parts.push(response.message.payload);
    received += response.message.payload.length;
    if (!block.more) return { payload: Buffer.concat(parts), response };
    if (response.message.payload.length !== block.size) {
      throw new DeviceProtocolError(engine.context(step), `block ${block.num} carries ${response.message.payload.length} bytes, not ${block.size}`);
    }
    size = block.size;
    num = received / size;
  }
}
