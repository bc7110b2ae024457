import { randomBytes } from 'node:crypto';
import { abortReason, DeviceProtocolError, DeviceTimeoutError } from '../errors';
import {
  contentFormatOf,
  encodeUint,
  qBlock1Option,
  type CoapMessage,
  type CoapOption,
} from '../../../protocol/coap/codec';
import { decodeMissingBlocks } from '../../../protocol/coap/missing-blocks';
import {
  CODE,
  CONTENT_FORMAT_MISSING_BLOCKS,
  MAX_RETRANSMIT,
  OPTION,
  Q_BLOCK_MAX_PAYLOADS,
} from '../../../protocol/coap/parameters';
import { deviceErrorFromResponse, type CoapEngine, type CoapResponse } from './engine';
import type { Block1UploadOptions, Block1UploadResult } from './upload';

/** Payloads sent between two turns of the event loop. */
const YIELD_EVERY = 16;

/** The device answered the first payload with 4.02: it does not take Q-Block1 (RFC 9177 §4.1). */
export const Q_BLOCK1_UNSUPPORTED = Symbol('Q-Block1 unsupported');

/**
 * Q-Block1 upload (RFC 9177 §4.4, docs/device-protocol.md 2.2): the body goes in payload sets of
 * MAX_PAYLOADS blocks, every block but a set's last one a NON request that nobody answers, the
 * set's last one a CON request that the engine retransmits until the device answers it with 2.31
 * (every block of the set is in: send the next set), 4.08 with the missing blocks (send those
 * again, the last of them as CON), or the final response. So the wire carries a whole set before
 * the host waits, and a lost block costs one more round, not a timeout.
 *
 * The host uses it only with a device whose /info says `qBlock1`, so it does not probe first (RFC
 * 9177 §4.1): a device without Q-Block1 ignores or refuses the NON payloads and answers the first
 * set's CON with 4.02, and the caller then sends Block1 (Q_BLOCK1_UNSUPPORTED). Every call uses a
 * fresh Request-Tag (RFC 9175), so the device never counts blocks of an earlier attempt into this
 * one's sets. A resumed upload
 * starts at the set holding `startOffset`: the blocks of that set below it are sent again (the
 * device stores them once), because the device's set bookkeeping begins with the set's first block.
 */
export async function uploadQBlock1(
  engine: CoapEngine,
  options: Block1UploadOptions,
  maxPayloads = Q_BLOCK_MAX_PAYLOADS,
): Promise<Block1UploadResult | typeof Q_BLOCK1_UNSUPPORTED> {
  const { data, signal, blockSize } = options;
  const total = data.length;
  const startOffset = options.startOffset ?? 0;
  if (startOffset % blockSize !== 0)
    throw new RangeError(`start offset ${startOffset} is not a multiple of the block size ${blockSize}`);
  const lastNum = Math.max(0, Math.ceil(total / blockSize) - 1);
  const requestTag: CoapOption = { number: OPTION.REQUEST_TAG, value: new Uint8Array(randomBytes(4)) };
  const stepOf = (num: number) => `${options.what} block ${num} (offset ${num * blockSize})`;
  let acknowledged = startOffset;

  /** Answers to NON payloads: only a final response or an error matters (the CON's answer says the rest). */
  let nonAnswer: CoapResponse | undefined;
  const onNonAnswer = (message: CoapMessage) => {
    if (
      message.code === CODE.CONTINUE ||
      message.code === CODE.REQUEST_ENTITY_INCOMPLETE ||
      message.code === CODE.BAD_OPTION
    )
      return;
    nonAnswer ??= { code: message.code, message };
  };

  const payloadOptions = (num: number): CoapOption[] => {
    const blockOptions: CoapOption[] = [qBlock1Option({ num, more: num < lastNum, size: blockSize }), requestTag];
    if (options.size1 && num === 0) blockOptions.push({ number: OPTION.SIZE1, value: encodeUint(total) });
    return [...blockOptions, ...(options.options ?? [])];
  };
  const payloadOf = (num: number) => data.subarray(num * blockSize, Math.min(total, (num + 1) * blockSize));

  /** Sends `nums` (ascending), the last as CON, and returns the device's answer to that one. */
  const sendRound = async (nums: number[]): Promise<CoapResponse> => {
    const stopListening: (() => void)[] = [];
    try {
      for (const [index, num] of nums.slice(0, -1).entries()) {
        if (signal?.aborted) throw abortReason(signal);
        // A set is a few milliseconds of encoding: let the event loop in between (the UI, the
        // answers of other devices, and in tests and benches the simulated device itself).
        if (index > 0 && index % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
        const token = engine.allocateToken();
        stopListening.push(engine.listen(token, onNonAnswer));
        engine.sendNonRequest({
          method: options.method ?? CODE.PUT,
          path: options.path,
          options: payloadOptions(num),
          payload: payloadOf(num),
          token,
          step: stepOf(num),
        });
      }
      const last = nums[nums.length - 1]!;
      return await engine.request({
        method: options.method ?? CODE.PUT,
        path: options.path,
        options: payloadOptions(last),
        payload: payloadOf(last),
        step: stepOf(last),
        signal,
        acceptErrors: true,
      });
    } finally {
      for (const stop of stopListening) stop();
    }
  };

  const finalResult = (response: CoapResponse): Block1UploadResult => {
    if (acknowledged !== total) options.onProgress?.(total);
    return { response, blockSize };
  };

  const firstNum = Math.floor(startOffset / blockSize / maxPayloads) * maxPayloads;
  /** Whether the device has answered a set yet: a 4.02 to the first says it has no Q-Block1. */
  let answered = false;
  for (let set = firstNum / maxPayloads; set * maxPayloads <= lastNum; set++) {
    const setEnd = Math.min(lastNum, set * maxPayloads + maxPayloads - 1);
    let pending = range(set * maxPayloads, setEnd);
    let fewestMissing = Number.POSITIVE_INFINITY;
    let roundsWithoutProgress = 0;
    while (pending.length > 0) {
      const response = await sendRound(pending);
      const answeredNum = pending[pending.length - 1]!;
      if (nonAnswer !== undefined) {
        // A NON payload that completed the body got the final answer; any other was refused.
        if (nonAnswer.code.startsWith('2.')) return finalResult(nonAnswer);
        throw deviceErrorFromResponse(nonAnswer, engine.context(`${options.what} upload`));
      }
      if (!answered && response.code === CODE.BAD_OPTION) return Q_BLOCK1_UNSUPPORTED;
      answered = true;
      if (response.code.startsWith('2.') && response.code !== CODE.CONTINUE) return finalResult(response);
      if (response.code === CODE.CONTINUE) {
        pending = pending.filter((num) => num > answeredNum);
        continue;
      }
      if (
        response.code === CODE.REQUEST_ENTITY_INCOMPLETE &&
        contentFormatOf(response.message) === CONTENT_FORMAT_MISSING_BLOCKS
      ) {
        const missing = missingOf(response, set * maxPayloads, answeredNum, engine, stepOf(answeredNum));
        // Repairs make progress unless the device keeps losing the same blocks: then it is gone.
        if (missing.length < fewestMissing) {
          fewestMissing = missing.length;
          roundsWithoutProgress = 0;
        } else if (++roundsWithoutProgress > MAX_RETRANSMIT) {
          throw new DeviceTimeoutError(engine.context(stepOf(missing[0]!)), roundsWithoutProgress, 'store');
        }
        pending = [...missing, ...pending.filter((num) => num > answeredNum)];
        continue;
      }
      throw deviceErrorFromResponse(response, engine.context(stepOf(answeredNum)));
    }
    acknowledged = Math.min(total, (setEnd + 1) * blockSize);
    if (acknowledged > startOffset) options.onProgress?.(acknowledged);
  }
  throw new DeviceProtocolError(
    engine.context(`${options.what} upload`),
    'every payload set was acknowledged with 2.31 but the device never reported the upload complete',
  );
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The 4.08's list, checked: block numbers of this set up to the one it answers, ascending. */
function missingOf(
  response: CoapResponse,
  setStart: number,
  answeredNum: number,
  engine: CoapEngine,
  step: string,
): number[] {
  let missing: number[];
  try {
    missing = decodeMissingBlocks(response.message.payload);
  } catch (error) {
    throw new DeviceProtocolError(engine.context(step), (error as Error).message);
  }
  const unique = [...new Set(missing)].sort((a, b) => a - b);
  if (unique.length === 0 || unique[0]! < setStart || unique[unique.length - 1]! > answeredNum) {
    throw new DeviceProtocolError(
      engine.context(step),
      `4.08 lists missing blocks [${missing.join(', ')}] outside ${setStart} to ${answeredNum}`,
    );
  }
  return unique;
}
