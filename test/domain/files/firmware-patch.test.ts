import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  chooseCoding,
  codingDetailText,
  codingTerms,
  codingText,
  describeCoding,
  parseCodingText,
} from '../../../domain/files/content-coding';
import {
  applyFirmwarePatch,
  createFirmwarePatch,
  FIRMWARE_PATCH_HEADER_SIZE,
  FirmwarePatchApplier,
  parseFirmwarePatchHeader,
  suffixArray,
} from '../../../domain/files/firmware-patch';

const HASHES = { baseSha256: new Uint8Array(32).fill(1), targetSha256: new Uint8Array(32).fill(2) };

function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  return out;
}

/** B from A as a new release would be: a few bytes changed, a run inserted, a run removed. */
function edited(a: Uint8Array): Uint8Array {
  const b = new Uint8Array([
    ...a.subarray(0, 1000),
    ...pseudoRandom(300, 9),
    ...a.subarray(1000, 5000),
    ...a.subarray(5600),
  ]);
  for (let i = 0; i < 40; i++) b[(i * 173) % b.length]! ^= 0x11;
  return b;
}

describe('firmware patch', () => {
  it('sorts suffixes like a plain sort does', () => {
    const data = new TextEncoder().encode('mississippi banana bandana');
    const plain = Array.from({ length: data.length + 1 }, (_, i) => i).sort((x, y) =>
      Buffer.compare(Buffer.from(data.subarray(x)), Buffer.from(data.subarray(y))),
    );
    expect(Array.from(suffixArray(data))).toEqual(plain);
  });

  it('rebuilds the target exactly, and deflates to a fraction of it for a small edit', async () => {
    const a = pseudoRandom(20_000, 5);
    const b = edited(a);
    const patch = createFirmwarePatch(a, b, HASHES);
    expect(parseFirmwarePatchHeader(patch)).toMatchObject({
      baseSize: a.length,
      targetSize: b.length,
      baseSha256: HASHES.baseSha256,
    });
    // Its diff bytes are mostly zeros: deflated, as it travels, it is a fraction of the target.
    expect(deflateRawSync(patch, { level: 9 }).length).toBeLessThan(b.length / 8);
    expect(Buffer.compare(Buffer.from(await applyFirmwarePatch(a, patch)), Buffer.from(b))).toBe(0);
  });

  it('applies while streaming in one-byte pieces, reading the base only where the patch says', async () => {
    const a = pseudoRandom(6_000, 11);
    const b = edited(a);
    const patch = createFirmwarePatch(a, b, HASHES);
    let largestRead = 0;
    const applier = new FirmwarePatchApplier(
      async (offset, length) => {
        largestRead = Math.max(largestRead, length);
        return a.subarray(offset, offset + length);
      },
      () => undefined,
    );
    const out: number[] = [];
    for (const byte of patch) for (const part of await applier.push(new Uint8Array([byte]))) out.push(...part);
    expect(applier.complete).toBe(true);
    expect(Buffer.compare(Buffer.from(out), Buffer.from(b))).toBe(0);
    expect(largestRead).toBe(1);
  });

  it('checks the base from the header before producing a byte', async () => {
    const a = pseudoRandom(3_000, 3);
    const patch = createFirmwarePatch(a, edited(a), HASHES);
    const applier = new FirmwarePatchApplier(
      async () => new Uint8Array(0),
      () => {
        throw new Error('not my base');
      },
    );
    await expect(applier.push(patch)).rejects.toThrow('not my base');
  });

  it('refuses a patch that is not one, or that reads outside its base, as FW_CODING_CORRUPT', async () => {
    const a = pseudoRandom(3_000, 3);
    await expect(applyFirmwarePatch(a, pseudoRandom(200, 4))).rejects.toMatchObject({ code: 'FW_CODING_CORRUPT' });
    const patch = createFirmwarePatch(a, edited(a), HASHES);
    await expect(applyFirmwarePatch(a.subarray(0, 100), patch)).rejects.toMatchObject({ code: 'FW_CODING_CORRUPT' });
    await expect(applyFirmwarePatch(a, patch.subarray(0, FIRMWARE_PATCH_HEADER_SIZE + 10))).rejects.toMatchObject({
      code: 'FW_CODING_CORRUPT',
    });
  });
});

describe('content coding choice', () => {
  const both = [
    { name: 'deflate', windowBits: 12 },
    { name: 'delta', windowBits: 12 },
  ];
  it('prefers delta when the host has a patch from the running image, then deflate, else identity', () => {
    expect(chooseCoding(both, { patchForRunningImage: true })).toEqual({ coding: 'delta', windowBits: 12 });
    expect(chooseCoding(both, { patchForRunningImage: false })).toEqual({ coding: 'deflate', windowBits: 12 });
    expect(chooseCoding(undefined, { patchForRunningImage: true })).toEqual({ coding: 'identity' });
    expect(chooseCoding([{ name: 'zstd', windowBits: 20 }], { patchForRunningImage: false })).toEqual({
      coding: 'identity',
    });
  });

  it('uses no window raw DEFLATE cannot have', () => {
    expect(chooseCoding([{ name: 'deflate', windowBits: 8 }], { patchForRunningImage: false })).toEqual({
      coding: 'identity',
    });
    expect(chooseCoding([{ name: 'deflate' }], { patchForRunningImage: false })).toEqual({ coding: 'identity' });
    expect(chooseCoding([{ name: 'deflate', windowBits: 16 }], { patchForRunningImage: false })).toEqual({
      coding: 'deflate',
      windowBits: 15,
    });
  });

  it('describes the coding as the progress shows it', () => {
    expect(describeCoding('deflate', 14_000, 10_000)).toBe('compressed, 1.4× faster');
    expect(describeCoding('delta', 120_000, 10_000)).toBe('changes only, 12.0× faster');
    // An image that does not compress is not called faster.
    expect(describeCoding('deflate', 10_100, 10_000)).toBe('compressed, no faster');
    expect(describeCoding('identity', 10, 10)).toBe('identity');
  });

  it('keeps the exact terms for the tooltip', () => {
    // The tooltip's words from the core's English line, as the Workbench makes them.
    const codingDetail = (text: string) => {
      const terms = parseCodingText(text);
      return terms ? codingDetailText(terms) : '';
    };
    expect(codingDetail('compressed, 1.4× faster')).toBe(
      'deflate (RFC 1951): the image is sent compressed and the device unpacks it; each byte on the cable carries 1.4 bytes of the image. Rate and time left count image bytes.',
    );
    expect(codingDetail('changes only, 12.0× faster')).toMatch(/^delta: only the differences .*carries 12\.0 bytes/);
    expect(codingDetail('compressed, no faster')).toMatch(/hardly compresses/);
    expect(codingDetail('something else')).toBe('');
    // The words read back into the terms they were made from.
    for (const [image, wire] of [
      [14_000, 10_000],
      [120_000, 10_000],
      [10_100, 10_000],
    ] as const) {
      const terms = codingTerms('delta', image, wire);
      expect(parseCodingText(codingText(terms))).toEqual(terms);
    }
  });
});
