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
import { encodeFirmwareImageHeader, FIRMWARE_IMAGE_HEADER_SIZE } from '../../../../domain/files/firmware-image';
import { DeflatedStore } from '../../../../main/app/cache/deflated-store';
import type { FirmwareSource } from '../../../../main/app/cache/firmware-source';
import { resolveFirmware } from '../../../../main/app/cache/resolve-firmware';
import { zopfliDeflate } from '../../../../main/app/cache/zopfli-deflate';
import { deflateInWorker } from '../../../../main/app/cache/zopfli-in-worker';
import { testReleaseKey } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('zopfli-deflate');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** 4 KB that compress like code: a fixture, not a figure. */
function codeLike(words = 1024): Uint8Array {
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + words * 4);
  image.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version: '2.0.0', bodyLength: words * 4 }));
  let state = 7;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    image.set([[0x2d, 0xe9, 0x4f, 0xf0][state % 4]!, 0xe9, (state >>> 8) & 0x0f, i % 7 === 0 ? (state >>> 16) & 0xff : 0], FIRMWARE_IMAGE_HEADER_SIZE + i * 4);
  }
  return image;
}

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
    expect(Buffer.from(inflateRawSync(stream!.bytes, { windowBits: stream!.windowBits })).equals(Buffer.from(source))).toBe(true);
    // zopfli works for tenths of a second on these 4 KB, a timer turn comes every millisecond or
    // so. Called on this thread (as before the worker), zopfli runs in one go and no timer runs.
    expect(turns).toBeGreaterThan(10);
  });

  it.each(Object.entries(DYING_WORKERS))('rejects with what happened when the worker %s', async (_how, script) => {
    const failure = deflateInWorker({ source: codeLike(16), numiterations: 1 }, script);
    await expect(failure).rejects.toThrow(/^zopfli('s worker thread (failed|stopped \(exit code 70\))| failed on its worker thread: zopfli gave up)/);
  });

  it('leaves the image to zlib at upload, and the resolve succeeding, when the worker dies', async () => {
    const image = codeLike();
    const bundle = buildFirmwareBundle({ deviceType: 'EPC', version: '2.0.0', image, releaseKeyPem: testReleaseKey.privateKeyPem });
    const answer = <T>(value: T) => Promise.resolve(value);
    const source: FirmwareSource = {
      baseUrl: 'http://service.test',
      orgId: 'o',
      devices: {
        listAll: () => (async function* () {})(),
        firmwareVersion: () => answer({ deviceType: 'EPC' as const, version: '2.0.0' }),
        firmwareVersionByType: () => answer({ deviceType: 'EPC' as const, version: '2.0.0' }),
        fetchFirmware: () => answer({ bytes: bundle, syncId: undefined, headers: new Headers() }),
        fetchFirmwareByType: () => answer({ bytes: bundle, syncId: undefined, headers: new Headers() }),
      },
    };
    const cache = bench.makeCache();
    const dyingStore = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, (bytes) => zopfliDeflate(bytes, DYING_WORKERS.exits));
    // The cache as the app makes it, but with its streams made by a worker that dies.
    Object.defineProperty(cache, 'deflated', { value: dyingStore });
    const resolved = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    expect(resolved.deflated).toBeUndefined();
    expect(sha(resolved.bundle.image)).toBe(sha(image));
    expect(await dyingStore.get(sha(image))).toBeUndefined();
  });
});
