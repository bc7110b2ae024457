import { inflateRawSync } from 'node:zlib';
import type { PrecodedStream } from '../../../domain/files/content-coding';
import { deflateInWorker } from './zopfli-in-worker';

/** Zopfli refers back at most 32 KiB (ZOPFLI_WINDOW_SIZE): its streams need a device window of 2^15. */
export const ZOPFLI_WINDOW_BITS = 15;

/**
 * Sources above this size are not run through zopfli: it costs about 60 ms per KiB, once per image
 * (docs/decisions.md), on a worker thread so the core's event loop runs on meanwhile. Their devices
 * get zlib's stream, made at upload.
 */
export const MAX_ZOPFLI_SOURCE_BYTES = 128 * 1024;

/** zopfli's own default: more iterations gained under 0.1 % on the bench images (docs/performance.md). */
const ITERATIONS = 15;

/**
 * The densest raw DEFLATE stream of `source` we know how to make (zopfli: plain DEFLATE, so every
 * device inflater takes it), made on a worker thread (zopfli-in-worker.ts) and checked here by
 * inflating it back: a stream that does not give `source` byte for byte is an error, never sent.
 * The check stays on this side, not in the worker, because it is what vouches for the worker's
 * output (a worker bundled wrong cannot check itself), and inflating is about a millisecond per
 * 100 KiB. Undefined for a source above MAX_ZOPFLI_SOURCE_BYTES. `workerScript` is for tests.
 */
export async function zopfliDeflate(source: Uint8Array, workerScript?: string): Promise<PrecodedStream | undefined> {
  if (source.length > MAX_ZOPFLI_SOURCE_BYTES) return undefined;
  const bytes = await deflateInWorker({ source, numiterations: ITERATIONS }, workerScript);
  const back = inflateRawSync(bytes, { windowBits: ZOPFLI_WINDOW_BITS });
  if (!Buffer.from(source).equals(back))
    throw new Error('zopfli made a stream that does not inflate to its source; it was not kept.');
  return { windowBits: ZOPFLI_WINDOW_BITS, bytes: new Uint8Array(bytes) };
}
