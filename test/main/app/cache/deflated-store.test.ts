import { createHash } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildFirmwareBundle } from '../../../../domain/files/firmware-bundle';
import { encodeFirmwareImageHeader, FIRMWARE_IMAGE_HEADER_SIZE } from '../../../../domain/files/firmware-image';
import type { PrecodedStream } from '../../../../domain/files/content-coding';
import { DeflatedStore } from '../../../../main/app/cache/deflated-store';
import type { FirmwareSource } from '../../../../main/app/cache/firmware-source';
import { resolveFirmware } from '../../../../main/app/cache/resolve-firmware';
import { MAX_ZOPFLI_SOURCE_BYTES, zopfliDeflate } from '../../../../main/app/cache/zopfli-deflate';
import { testReleaseKey } from '../../../fixtures/release-key';
import { useFirmwareCacheBench } from './firmware-cache-bench';

const bench = useFirmwareCacheBench('deflated-store');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** 6 KB that compress like code (repeated opcodes, varying operands): a fixture, not a figure. */
function codeLike(words = 1536): Uint8Array {
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + words * 4);
  image.set(encodeFirmwareImageHeader({ deviceType: 'EPC', version: '2.0.0', bodyLength: words * 4 }));
  let state = 99;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const at = FIRMWARE_IMAGE_HEADER_SIZE + i * 4;
    image.set([[0x2d, 0xe9, 0x4f, 0xf0][state % 4]!, 0xe9, (state >>> 8) & 0x0f, i % 7 === 0 ? (state >>> 16) & 0xff : 0], at);
  }
  return image;
}

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
    expect(stream.bytes.length).toBeLessThanOrEqual(deflateRawSync(source, { level: 9, memLevel: 9, windowBits: 15 }).length);
  });

  it('leaves sources above its limit to zlib at upload', async () => {
    expect(await zopfliDeflate(new Uint8Array(MAX_ZOPFLI_SOURCE_BYTES + 1))).toBeUndefined();
  });

  it('makes a stream once per source and reads it back after that, in another process too', async () => {
    const source = codeLike();
    const counter = countingDeflate();
    const store = new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, counter.deflate);
    const made = (await store.of(source))!;
    const again = await new DeflatedStore(bench.dir, join(bench.dir, 'quarantine'), undefined, undefined, counter.deflate).of(source);
    expect(counter.calls).toBe(1);
    expect(again).toEqual(made);
    expect(await readdir(join(bench.dir, 'deflated'))).toEqual([`${sha(source)}.15.${sha(made.bytes)}.deflate`]);
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
    const first = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    const deflated: PrecodedStream = first.deflated!;
    expect(sha(inflateRawSync(deflated.bytes))).toBe(sha(image));
    const second = await resolveFirmware(cache, source, { deviceType: 'EPC' });
    expect(second.deflated).toEqual(deflated);
  });
});
