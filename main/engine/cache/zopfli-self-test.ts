import type { CacheSelfTestResult } from '../../../contract/index';
import { zopfliDeflate } from './zopfli-deflate';

/** 8 KiB shaped like code (a few opcodes, varying operands): enough for zopfli to find matches. */
function sample(): Uint8Array {
  const bytes = new Uint8Array(8 * 1024);
  let state = 1;
  for (let i = 0; i < bytes.length; i += 4) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes.set([[0x2d, 0xe9, 0x4f, 0xf0][state % 4]!, 0xe9, (state >>> 8) & 0x0f, 0], i);
  }
  return bytes;
}

/**
 * The firmware cache makes its deflated streams with zopfli on a worker thread whose script is
 * bundled into the build (scripts/zopfli-worker-plugin.mjs). This makes one from a built-in sample,
 * checked by inflating it back (zopfliDeflate does), so an install that cannot (and would send
 * zlib's larger streams) shows it.
 */
export async function zopfliSelfTest(): Promise<CacheSelfTestResult> {
  const source = sample();
  let stream: Uint8Array | undefined;
  try {
    stream = (await zopfliDeflate(source))?.bytes;
  } catch (error) {
    return { outcome: 'cannot', message: error instanceof Error ? error.message : String(error) };
  }
  if (stream === undefined) return { outcome: 'aboveLimit' };
  return { outcome: 'passed', sourceBytes: source.length, streamBytes: stream.length };
}
