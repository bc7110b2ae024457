import { Worker } from 'node:worker_threads';
import { zopfliWorkerScript } from './zopfli-worker-script';

/** What the worker is given (workerData). */
export interface ZopfliWorkerInput {
  readonly source: Uint8Array;
  readonly numiterations: number;
}

/** What the worker posts back, once. */
export type ZopfliWorkerAnswer = { readonly bytes: Uint8Array } | { readonly error: string };

/**
 * zopfli's raw DEFLATE stream of `input.source`, made on a worker thread of its own: zopfli takes
 * seconds per image, and on the core's thread it would hold every upload's timers, progress and
 * the UI's IPC meanwhile. One worker per stream (a release is deflated once), ended when it has
 * answered. A worker that fails, or stops before it answers, rejects with what happened.
 * `script` is the worker's code; only tests give another.
 */
export function deflateInWorker(input: ZopfliWorkerInput, script: string = zopfliWorkerScript()): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { eval: true, workerData: input });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    worker.once('message', (answer: ZopfliWorkerAnswer) =>
      settle(() =>
        'bytes' in answer
          ? resolve(answer.bytes)
          : reject(new Error(`zopfli failed on its worker thread: ${answer.error}`)),
      ),
    );
    worker.once('error', (error) =>
      settle(() => reject(new Error(`zopfli's worker thread failed: ${error.message}`, { cause: error }))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`zopfli's worker thread stopped (exit code ${code}) before it made a stream.`))),
    );
  });
}
