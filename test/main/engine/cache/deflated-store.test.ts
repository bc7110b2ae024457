import { createHash } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import type { PrecodedStream } from '../../../../domain/files/content-coding';
import { DeflatedStore } from '../../../../main/engine/cache/deflated-store';
import { resolveFirmware } from '../../../../main/engine/cache/resolve-firmware';
import { MAX_ZOPFLI_SOURCE_BYTES, zopfliDeflate } from '../../../../main/engine/cache/zopfli-deflate';
import { testReleaseKey } from '../../../fixtures/release-key';
import { codeLikeImage, servingBundle } from './deflate-fixtures';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('deflated-store');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** 6 KB that compress like code: a fixture, not a figure. */
const codeLike = (words = 1536) => codeLikeImage(words, 99);

/** zopfliDeflate, counting its calls. */
function countingDeflate() {
  const counter = { calls: 0, deflate: (source: Uint8Array) => (counter.calls++, zopfliDeflate(source)) };
  return counter;
}

describe('zopfli streams kept in the firmware cache', () => {
  it('makes a plain DEFLATE stream in a 32 KiB window, no larger than zlib -9, that inflates to the source', async () => {
    const source = codeLike();
    const stream = (await zopfliDeflate(source))!;
    expect(stream.windowBits).toBe(15);
    expect(Buffer.from(inflateRawSync(stream.bytes, { windowBits: 15 })).equals(Buffer.from(source))).toBe(true);
    expect(stream.bytes.length).toBeLessThanOrEqual(
      deflateRawSync(source, { level: 9, memLevel: 9, windowBits: 15 }).length,
    );
  });

  it('leaves sources above its limit to zlib at upload', async () => {
    expect(await zopfliDeflate(new Uint8Array(MAX_ZOPFLI_SOURCE_BYTES + 1))).toBeUndefined();
  });

  it('makes a stream once per source and reads it back after that, in another process too', async () => {
    const source = codeLike();
    const counter = countingDeflate();
    const store = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, counter.deflate);
    const made = (await store.of(source))!;
    const again = await new DeflatedStore(
      bench.dir,
      join(bench.dir, 'quarantine'),
      undefined,
      undefined,
      counter.deflate,
    ).of(source);
    expect(counter.calls).toBe(1);
    expect(again).toEqual(made);
    expect(await readdir(join(bench.dir, 'deflated'))).toEqual([`${sha(source)}.15.${sha(made.bytes)}.deflate`]);
  });

  it('makes a stream once when several jobs of a new release ask for it at the same time', async () => {
    const source = codeLike();
    const counter = countingDeflate();
    const store = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, counter.deflate);
    const [first, second, third] = await Promise.all([store.of(source), store.of(source), store.of(source)]);
    expect(counter.calls).toBe(1);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(sha(inflateRawSync(first!.bytes))).toBe(sha(source));
  });

  it('quarantines a kept stream that no longer inflates to its source, and makes a new one', async () => {
    const source = codeLike();
    const counter = countingDeflate();
    const store = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, counter.deflate);
    await store.of(source);
    const [name] = await readdir(join(bench.dir, 'deflated'));
    // A stream of other bytes renamed to pass the hash check: only the inflate check catches it.
    const other = deflateRawSync(codeLike(1000));
    await writeFile(join(bench.dir, 'deflated', name!), other);
    const renamed = `${sha(source)}.15.${sha(other)}.deflate`;
    await writeFile(join(bench.dir, 'deflated', renamed), other);
    expect(await store.get(sha(source))).toBeUndefined();
    expect((await readdir(join(bench.dir, 'quarantine'))).length).toBe(2);
    const remade = (await store.of(source))!;
    expect(counter.calls).toBe(2);
    expect(sha(inflateRawSync(remade.bytes))).toBe(sha(source));
  });

  it('resolves a bundle with its image deflated once, as the firmware job sends it', async () => {
    const image = codeLike();
    const bundle = buildFirmwareBundle({
      deviceType: 'EPC',
      version: '2.0.0',
      image,
      releaseKeyPem: testReleaseKey.privateKeyPem,
    });
    const source = servingBundle(bundle);
    const cache = bench.makeCache();
    const first = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    const deflated: PrecodedStream = first.deflated!;
    expect(sha(inflateRawSync(deflated.bytes))).toBe(sha(image));
    const second = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    expect(second.deflated).toEqual(deflated);
  });
});
