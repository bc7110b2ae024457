import { DeviceProtocolError, DeviceTimeoutError } from '../errors';
import { block2Of, block2Option, getOption, getUintOption, type CoapOption } from '../../../protocol/coap/codec';
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
  /** Largest body taken; a device that sends more fails the download. Default BLOCK2_MAX_BYTES. */
  maxBytes?: number;
  /** The whole download, every block and retransmission, ends by then. Default BLOCK2_DEADLINE_MS. */
  deadlineMs?: number;
}

/**
 * A device decides how many blocks it sends (M = 1 means "ask for the next"): without a limit, one
 * that never says M = 0 would be asked forever and its bytes kept. Our resources are small.
 */
export const BLOCK2_MAX_BYTES = 64 * 1024;
/**
 * Each block has its own retransmission timeouts, so a device answering every block just in time
 * could drag a download on for hours: the download as a whole has this long.
 */
export const BLOCK2_DEADLINE_MS = 120_000;

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
 * At most `maxBytes` are taken and the whole download ends within `deadlineMs`.
 */
export async function downloadBlock2(
  engine: CoapEngine,
  options: Block2DownloadOptions,
): Promise<Block2DownloadResult> {
  const deadlineMs = options.deadlineMs ?? BLOCK2_DEADLINE_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  let step = options.step;
  let tries = 0;
  try {
    return await fetchBlocks(engine, options, signal, (current) => {
      step = current;
      tries += 1;
    });
  } catch (error) {
    // The caller's own cancellation stays what it is; only the deadline becomes a timeout.
    if (deadline.signal.aborted && !options.signal?.aborted) {
      throw new DeviceTimeoutError(
        engine.context(step),
        tries,
        'finish',
        `within ${deadlineMs / 1000} s (${tries} block requests)`,
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function fetchBlocks(
  engine: CoapEngine,
  options: Block2DownloadOptions,
  signal: AbortSignal,
  onRequest: (step: string) => void,
): Promise<Block2DownloadResult> {
  const maxBytes = options.maxBytes ?? BLOCK2_MAX_BYTES;
  const parts: Uint8Array[] = [];
  let received = 0;
  let size = options.blockSize;
  let etag: Uint8Array | undefined;
  for (let num = 0; ;) {
    const blockOptions = size === undefined ? [] : [block2Option({ num, more: false, size })];
    const step = num === 0 ? options.step : `${options.step} block ${num}`;
    onRequest(step);
    const response = await engine.request({
      method: CODE.GET,
      path: options.path,
      options: [...blockOptions, ...(options.options ?? [])],
      step,
      signal,
      maxRetransmit: options.maxRetransmit,
    });
    const tooLarge = (what: string) =>
      new DeviceProtocolError(engine.context(step), `${what}, more than the ${maxBytes} bytes taken`);
    // Size2 (RFC 7959 §4) announces the whole body: one too large fails before its blocks are asked for.
    const announced = getUintOption(response.message, OPTION.SIZE2);
    if (announced !== undefined && announced > maxBytes)
      throw tooLarge(`the answer announces ${announced} bytes (Size2)`);
    if (received + response.message.payload.length > maxBytes) throw tooLarge('the answer keeps going');
    const block = block2Of(response.message);
    if (!block) {
      if (num !== 0)
        throw new DeviceProtocolError(engine.context(step), 'a block-wise download lost its Block2 option');
      return { payload: response.message.payload, response };
    }
    if (block.num * block.size !== received) {
      throw new DeviceProtocolError(
        engine.context(step),
        `block ${block.num} of ${block.size} bytes does not start at offset ${received}`,
      );
    }
    const blockEtag = getOption(response.message, OPTION.ETAG);
    if (num === 0) etag = blockEtag;
    else if (!equalOptional(etag, blockEtag))
      throw new DeviceProtocolError(engine.context(step), 'the resource changed during a block-wise download (ETag)');
    parts.push(response.message.payload);
    received += response.message.payload.length;
    if (!block.more) return { payload: Buffer.concat(parts), response };
    if (response.message.payload.length !== block.size) {
      throw new DeviceProtocolError(
        engine.context(step),
        `block ${block.num} carries ${response.message.payload.length} bytes, not ${block.size}`,
      );
    }
    size = block.size;
    num = received / size;
  }
}
