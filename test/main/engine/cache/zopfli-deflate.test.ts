/**
 * zopfli on its worker thread (zopfli-in-worker.ts), run from source as tests and tsx run it: the
 * stream it makes inflates to its source, the core's event loop keeps turning while it works, and
 * a worker that fails leaves the upload to zlib instead of failing it.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { DeflatedStore } from '../../../../main/engine/cache/deflated-store';
import { resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { zopfliDeflate } from '../../../../main/engine/cache/zopfli-deflate';
import { deflateInWorker } from '../../../../main/engine/cache/zopfli-in-worker';
import { testReleaseKey } from '../../../fixtures/release-key';
import { codeLikeImage, servingBundle } from './deflate-fixtures';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('zopfli-deflate');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** 4 KB that compress like code: a fixture, not a figure. */
const codeLike = (words = 1024) => codeLikeImage(words, 7);

/**
 * `work`'s value and how many times the event loop ran a timer until it settled: a chain of 1 ms
 * timers, as an upload's timers and progress are (not a busy loop, which would take the CPU the
 * worker needs on a loaded machine).
 */
async function turnsWhile<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let settled = false;
  let turns = 0;
  const turn = () => {
    if (settled) return;
    turns++;
    setTimeout(turn, 1);
  };
  setTimeout(turn, 1);
  try {
    return { value: await work(), turns };
  } finally {
    settled = true;
  }
}

/** Worker scripts that fail each in its own way. */
const DYING_WORKERS = {
  exits: 'process.exit(70);',
  throws: "throw new Error('out of memory, say');",
  refuses: "require('node:worker_threads').parentPort.postMessage({ error: 'zopfli gave up' });",
};

describe('zopfli on its own worker thread', () => {
  it('makes a stream that inflates to its source while the event loop keeps turning', async () => {
    const source = codeLike();
    // Warm: the first call from a process may also pay for compiling zopfli's WebAssembly.
    await zopfliDeflate(codeLike(64));
    const { value: stream, turns } = await turnsWhile(() => zopfliDeflate(source));
    expect(
      Buffer.from(inflateRawSync(stream!.bytes, { windowBits: stream!.windowBits })).equals(Buffer.from(source)),
    ).toBe(true);
    // zopfli works for tenths of a second on these 4 KB, a timer turn comes every millisecond or
    // so. Called on this thread (as before the worker), zopfli runs in one go and no timer runs.
    expect(turns).toBeGreaterThan(10);
  });

  it.each(Object.entries(DYING_WORKERS))('rejects with what happened when the worker %s', async (_how, script) => {
    const failure = deflateInWorker({ source: codeLike(16), numiterations: 1 }, script);
    await expect(failure).rejects.toThrow(
      /^zopfli('s worker thread (failed|stopped \(exit code 70\))| failed on its worker thread: zopfli gave up)/,
    );
  });

  it('leaves the image to zlib at upload, and the resolve succeeding, when the worker dies', async () => {
    const image = codeLike();
    const bundle = buildFirmwareBundle({
      deviceType: 'EPC',
      version: '2.0.0',
      image,
      releaseKeyPem: testReleaseKey.privateKeyPem,
    });
    const source = servingBundle(bundle);
    const cache = bench.makeCache();
    const dyingStore = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, (bytes) =>
      zopfliDeflate(bytes, DYING_WORKERS.exits),
    );
    // The cache as the app makes it, but with its streams made by a worker that dies.
    Object.defineProperty(cache, 'deflated', { value: dyingStore });
    const resolved = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    expect(resolved.deflated).toBeUndefined();
    expect(sha(resolved.bundle.image)).toBe(sha(image));
    expect(await dyingStore.get(sha(image))).toBeUndefined();
  });
});
