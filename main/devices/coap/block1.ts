import { abortReason, DeviceProtocolError } from '../errors';
import { block1Of, block1Option, encodeUint, type CoapOption } from '../../../protocol/coap/codec';
import { deviceErrorFromResponse, type CoapEngine, type CoapResponse } from './engine';
import { CODE, OPTION } from '../../../protocol/coap/parameters';
import { Q_BLOCK1_UNSUPPORTED, uploadQBlock1 } from './q-block1';
import type { Block1UploadOptions, Block1UploadResult } from './upload';

export type { Block1UploadOptions, Block1UploadResult } from './upload';

interface Range {
  offset: number;
  length: number;
}

/**
 * Block1 upload (RFC 7959 §2.5) with up to `window` blocks in flight within a sliding window, as docs/device-protocol.md
 * §2.1 allows: each block is its own CON exchange and names its offset, so blocks may be
 * acknowledged in any order. The upload ends with the first final (non-2.31) success response;
 * a 4.13 with a smaller Block1 size, or a 2.31 echoing a smaller one, makes later blocks smaller.
 */
export async function uploadBlock1(engine: CoapEngine, options: Block1UploadOptions): Promise<Block1UploadResult> {
  // Q-Block1 is for UDP, where a round trip per window leaves the wire idle; serial and BLE frames
  // already fill their line with the Block1 window.
  if (options.qBlock1 && engine.link.kind === 'udp') {
    const result = await uploadQBlock1(engine, options, options.qBlock1MaxPayloads);
    if (result !== Q_BLOCK1_UNSUPPORTED) return result;
  }
  return uploadInWindow(engine, options);
}

function uploadInWindow(engine: CoapEngine, options: Block1UploadOptions): Promise<Block1UploadResult> {
  const { data, signal } = options;
  const total = data.length;
  let blockSize = options.blockSize;
  let window = Math.max(1, options.window);
  const startOffset = options.startOffset ?? 0;
  if (startOffset % blockSize !== 0)
    throw new RangeError(`start offset ${startOffset} is not a multiple of the block size ${blockSize}`);
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  return new Promise<Block1UploadResult>((resolve, reject) => {
    let nextOffset = startOffset;
    /** Ranges to send again (after a 4.13 or 4.08), lowest offset first. */
    const retry: Range[] = [];
    const inFlight = new Set<AbortController>();
    /** Acknowledged ranges beyond the contiguous prefix: start → end. */
    const acked = new Map<number, number>();
    let acknowledged = startOffset;
    let done = false;

    const stop = () => {
      done = true;
      for (const controller of inFlight) controller.abort(new Error('upload finished'));
      inFlight.clear();
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown) => {
      if (done) return;
      stop();
      reject(error);
    };
    const onAbort = () => fail(abortReason(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });

    const acknowledge = (range: Range) => {
      acked.set(range.offset, range.offset + range.length);
      const before = acknowledged;
      for (let end = acked.get(acknowledged); end !== undefined; end = acked.get(acknowledged)) {
        acked.delete(acknowledged);
        acknowledged = end;
      }
      if (acknowledged !== before) options.onProgress?.(acknowledged);
    };

    const requeue = (range: Range) => {
      for (let offset = range.offset; offset < range.offset + range.length; offset += blockSize) {
        retry.push({ offset, length: Math.min(blockSize, range.offset + range.length - offset) });
      }
      retry.sort((a, b) => a.offset - b.offset);
    };

    // An empty upload is still one (empty) block.
    let sentEmpty = false;
    const hasWork = () => retry.length > 0 || nextOffset < total || (total === 0 && !sentEmpty);

    const takeRange = (): Range => {
      const queued = retry.shift();
      if (queued) return queued;
      const range = { offset: nextOffset, length: Math.min(blockSize, total - nextOffset) };
      nextOffset += range.length;
      if (total === 0) sentEmpty = true;
      return range;
    };

    const handle = (range: Range, response: CoapResponse, sentSize: number) => {
      const step = `${options.what} block ${range.offset / sentSize} (offset ${range.offset})`;
      if (response.code === CODE.CONTINUE) {
        acknowledge(range);
        const echo = block1Of(response.message);
        // RFC 7959 §2.3: the server may ask for smaller blocks in its 2.31; never larger.
        if (echo && echo.size < blockSize) {
          blockSize = echo.size;
          if (nextOffset % blockSize !== 0)
            throw new DeviceProtocolError(
              engine.context(step),
              `block size ${echo.size} does not divide offset ${nextOffset}`,
            );
        }
        return;
      }
      if (response.code.startsWith('2.')) {
        acknowledge(range);
        stop();
        resolve({ response, blockSize });
        return;
      }
      const echo = block1Of(response.message);
      if (response.code === CODE.REQUEST_ENTITY_TOO_LARGE && echo && echo.size < sentSize) {
        blockSize = Math.min(blockSize, echo.size);
        requeue(range);
        return;
      }
      if (response.code === CODE.REQUEST_ENTITY_INCOMPLETE && window > 1) {
        // The device holds fewer blocks beyond its contiguous offset than we sent: send fewer at once.
        window = Math.max(1, Math.floor(window / 2));
        requeue(range);
        return;
      }
      throw deviceErrorFromResponse(response, engine.context(step));
    };

    const sendNext = () => {
      const range = takeRange();
      const size = blockSize;
      const num = range.offset / size;
      const more = range.offset + range.length < total;
      const blockOptions: CoapOption[] = [block1Option({ num, more, size })];
      if (options.size1 && range.offset === 0) blockOptions.push({ number: OPTION.SIZE1, value: encodeUint(total) });
      const controller = new AbortController();
      inFlight.add(controller);
      engine
        .request({
          method: options.method ?? CODE.PUT,
          path: options.path,
          options: [...blockOptions, ...(options.options ?? [])],
          payload: data.subarray(range.offset, range.offset + range.length),
          step: `${options.what} block ${num} (offset ${range.offset})`,
          signal: controller.signal,
          acceptErrors: true,
          moreFollows: window > 1 && hasWork(),
        })
        .then(
          (response) => {
            if (!done) handle(range, response, size);
          },
          (error: unknown) => fail(error),
        )
        .catch((error: unknown) => fail(error))
        .finally(() => {
          inFlight.delete(controller);
          pump();
        });
    };

    // A sliding window (docs/device-protocol.md §2.1): besides at most `window` requests in flight,
    // no block may start `window` blocks beyond the acknowledged prefix, because the device only
    // buffers that far past its contiguous offset; a lost block holds the window until it is repaired.
    const nextOffsetToSend = () => retry[0]?.offset ?? nextOffset;
    const withinWindow = () => nextOffsetToSend() < acknowledged + window * blockSize;

    const pump = () => {
      if (done) return;
      while (inFlight.size < window && hasWork() && withinWindow()) sendNext();
      if (inFlight.size === 0 && !hasWork()) {
        fail(
          new DeviceProtocolError(
            engine.context(`${options.what} upload`),
            `every block was acknowledged with 2.31 but the device never reported the upload complete`,
          ),
        );
      }
    };

    pump();
  });
}
