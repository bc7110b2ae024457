import {
  block1Of,
  block1Option,
  getUintOption,
  OPTION,
  type BlockOption,
  type CoapMessage,
} from '../../../protocol/coap';
import { DEVICE_ERROR, DEVICE_ERROR_MORE } from '../../../protocol/constants';
import { DeviceError } from '../errors';

export interface IncomingBlock {
  block: BlockOption;
  offset: number;
  payload: Uint8Array;
  /** Size1 (RFC 7959 §4), when the host says how large the whole body is. */
  size1: number | undefined;
}

/**
 * The Block1 block of a PUT, checked against the device's largest block. A PUT without Block1 is
 * one block holding the whole body (what a generic client sends for a small body).
 */
export function incomingBlock(message: CoapMessage, maxBlockSize: number): IncomingBlock {
  let block: BlockOption | undefined;
  try {
    block = block1Of(message);
  } catch {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The Block1 option is malformed.');
  }
  const payload = message.payload;
  const size1 = getUintOption(message, OPTION.SIZE1);
  if (block === undefined) {
    if (payload.length > maxBlockSize) {
      throw new DeviceError(
        DEVICE_ERROR_MORE.blockTooLarge,
        `Send bodies over ${maxBlockSize} bytes in Block1 blocks.`,
        {},
        [block1Option({ num: 0, more: false, size: maxBlockSize })],
      );
    }
    return { block: { num: 0, more: false, size: Math.max(16, payload.length) }, offset: 0, payload, size1 };
  }
  if (block.size > maxBlockSize) {
    // RFC 7959 §2.9.3: 4.13 with the Block1 size the device takes.
    throw new DeviceError(
      DEVICE_ERROR_MORE.blockTooLarge,
      `Blocks of ${block.size} bytes are larger than the ${maxBlockSize} this device takes.`,
      {},
      [block1Option({ num: 0, more: false, size: maxBlockSize })],
    );
  }
  if (payload.length > block.size || (block.more && payload.length !== block.size)) {
    throw new DeviceError(
      DEVICE_ERROR.badRequest,
      `Block ${block.num} carries ${payload.length} bytes; blocks before the last carry exactly ${block.size}.`,
    );
  }
  return { block, offset: block.num * block.size, payload, size1 };
}
