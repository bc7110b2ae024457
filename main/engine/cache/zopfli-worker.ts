/**
 * What a zopfli worker thread runs (started by zopfli-in-worker.ts): deflates `workerData.source`
 * with zopfli and posts the stream back, or the reason it could not. It runs as it is from source
 * (Node 24 strips its types) and bundled with @gfx/zopfli into the two builds
 * (scripts/zopfli-worker-plugin.mjs), so it must stay plain: erasable type syntax only, no imports
 * of our own modules but types.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { deflateAsync } from '@gfx/zopfli';
import type { ZopfliWorkerAnswer, ZopfliWorkerInput } from './zopfli-in-worker';

if (parentPort === null)
  throw new Error('zopfli-worker.ts runs only as a worker thread; call deflateInWorker (zopfli-in-worker.ts) instead.');
const port = parentPort;
const input = workerData as ZopfliWorkerInput;
const answer = (message: ZopfliWorkerAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

deflateAsync(input.source, { numiterations: input.numiterations }).then(
  (bytes) => answer({ bytes }, [bytes.buffer as ArrayBuffer]),
  (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
);
