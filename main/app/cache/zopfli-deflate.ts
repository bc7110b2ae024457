import { inflateRawSync } from 'node:zlib';
import { deflateAsync } from '@gfx/zopfli';
import type { PrecodedStream } from '../../../domain/files/content-coding';

/** Zopfli refers back at most 32 KiB (ZOPFLI_WINDOW_SIZE): its streams need a device window of 2^15. */
export const ZOPFLI_WINDOW_BITS = 15;

/**
 * Sources above this size are not run through zopfli: it costs about 60 ms per KiB here, on the
 * core's thread, once per image (docs/decisions.md). Their devices get zlib's stream, made at upload.
 */
export const MAX_ZOPFLI_SOURCE_BYTES = 128 * 1024;

/** zopfli's own default: more iterations gained under 0.1 % on the bench images (docs/performance.md). */
const ITERATIONS = 15;

/**
 * The densest raw DEFLATE stream of `source` we know how to make (zopfli: plain DEFLATE, so every
 * device inflater takes it), checked by inflating it back: a stream that does not give `source`
 * byte for byte is an error here, never sent. Undefined for a source above MAX_ZOPFLI_SOURCE_BYTES.
 */
export async function zopfliDeflate(source: Uint8Array): Promise<PrecodedStream | undefined> {
  if (source.length > MAX_ZOPFLI_SOURCE_BYTES) return undefined;
  const bytes = await deflateAsync(source, { numiterations: ITERATIONS });
  const back = inflateRawSync(bytes, { windowBits: ZOPFLI_WINDOW_BITS });
  if (!Buffer.from(source).equals(back)) throw new Error('zopfli made a stream that does not inflate to its source; it was not kept.');
  return { windowBits: ZOPFLI_WINDOW_BITS, bytes: new Uint8Array(bytes) };
}
