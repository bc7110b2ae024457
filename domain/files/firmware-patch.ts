import { opensWith, writeOpening, type BinaryOpening } from './binary-opening';
import { FileFormatError } from './file-error';

/**
 * A firmware patch: how to build image B from image A, which the device applies while the patch
 * streams in, reading its running slot (A) at positions the patch names and writing B in order.
 * The algorithm is Colin Percival's bsdiff (suffix array of A, approximate matches whose byte
 * differences compress well); the layout is sequential (ENDSLEY/bsdiff-style interleaving, as
 * detools' "sequential" format), so the device needs no random access into the patch, only into
 * its own slot. docs/decisions.md says why we encode it ourselves.
 *
 *   0  magic "PVDP"
 *   4  format version, 1; 3 bytes zero
 *   8  base size, uint32 LE
 *  12  base SHA-256 (32 bytes): the image the device must run
 *  44  target size, uint32 LE
 *  48  target SHA-256 (32 bytes)
 *  80  records until the target is complete: diffLength, extraLength (unsigned LEB128), seek
 *      (zigzag LEB128), then diffLength bytes added to the base's (mod 256) and extraLength bytes
 *      copied as they are. The base position moves by diffLength + seek after each record.
 *
 * On the wire the patch is deflated like a full image (content coding "delta"); its size before
 * that is what the service stores.
 */
const FIRMWARE_PATCH_OPENING: BinaryOpening = { magic: 'PVDP', version: 1 };
export const FIRMWARE_PATCH_HEADER_SIZE = 80;

export interface FirmwarePatchHeader {
  baseSize: number;
  baseSha256: Uint8Array;
  targetSize: number;
  targetSha256: Uint8Array;
}

export function encodeFirmwarePatchHeader(header: FirmwarePatchHeader): Uint8Array {
  const out = new Uint8Array(FIRMWARE_PATCH_HEADER_SIZE);
  writeOpening(out, FIRMWARE_PATCH_OPENING);
  const view = new DataView(out.buffer);
  view.setUint32(8, header.baseSize, true);
  out.set(header.baseSha256, 12);
  view.setUint32(44, header.targetSize, true);
  out.set(header.targetSha256, 48);
  return out;
}

export function parseFirmwarePatchHeader(bytes: Uint8Array): FirmwarePatchHeader {
  if (bytes.length < FIRMWARE_PATCH_HEADER_SIZE || !opensWith(bytes, FIRMWARE_PATCH_OPENING)) {
    throw new FileFormatError(
      'FW_CODING_CORRUPT',
      'This is not a firmware patch (its header is missing or of an unknown version).',
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    baseSize: view.getUint32(8, true),
    baseSha256: bytes.slice(12, 44),
    targetSize: view.getUint32(44, true),
    targetSha256: bytes.slice(48, 80),
  };
}

/** The suffix array of `data` with the empty suffix first (bsdiff's I[0] = n): prefix doubling, O(n log² n). */
export function suffixArray(data: Uint8Array): Int32Array {
  const n = data.length;
  const sa = new Int32Array(n + 1);
  let rank = new Int32Array(n + 1);
  let next = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    sa[i] = i;
    rank[i] = i === n ? -1 : data[i]!;
  }
  for (let k = 1; ; k *= 2) {
    const r = rank;
    const second = (i: number) => (i + k <= n ? r[i + k]! : -1);
    const order = Array.from(sa).sort((a, b) => r[a]! - r[b]! || second(a) - second(b));
    sa.set(order);
    next[sa[0]!] = 0;
    for (let i = 1; i <= n; i++) {
      const a = sa[i - 1]!;
      const b = sa[i]!;
      next[b] = next[a]! + (r[a] !== r[b] || second(a) !== second(b) ? 1 : 0);
    }
    [rank, next] = [next, rank];
    if (rank[sa[n]!] === n) return sa;
  }
}

function matchLength(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number): number {
  let i = 0;
  while (aStart + i < a.length && bStart + i < b.length && a[aStart + i] === b[bStart + i]) i++;
  return i;
}

/** memcmp of old[from..] and target[at..] over their common length. */
function compareSuffix(old: Uint8Array, from: number, target: Uint8Array, at: number): number {
  const length = Math.min(old.length - from, target.length - at);
  for (let i = 0; i < length; i++) {
    const d = old[from + i]! - target[at + i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The longest match of target[at..] in old, by binary search over the suffix array. */
function longestMatch(
  sa: Int32Array,
  old: Uint8Array,
  target: Uint8Array,
  at: number,
): { length: number; position: number } {
  let start = 0;
  let end = old.length;
  while (end - start >= 2) {
    const middle = start + ((end - start) >> 1);
    if (compareSuffix(old, sa[middle]!, target, at) < 0) start = middle;
    else end = middle;
  }
  const x = matchLength(old, sa[start]!, target, at);
  const y = matchLength(old, sa[end]!, target, at);
  return x > y ? { length: x, position: sa[start]! } : { length: y, position: sa[end]! };
}

class ByteSink {
  private chunks: Uint8Array[] = [];
  private current = new Uint8Array(64 * 1024);
  private used = 0;
  private total = 0;

  push(byte: number): void {
    if (this.used === this.current.length) this.flush();
    this.current[this.used++] = byte;
    this.total++;
  }

  pushVarint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.push(v);
  }

  bytes(): Uint8Array {
    this.flush();
    const out = new Uint8Array(this.total);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private flush(): void {
    this.chunks.push(this.current.slice(0, this.used));
    this.used = 0;
  }
}

const zigzag = (value: number) => (value < 0 ? -2 * value - 1 : 2 * value);
const unzigzag = (value: number) => (value % 2 === 1 ? -(value + 1) / 2 : value / 2);

/**
 * The patch that turns `base` into `target` (bsdiff's scan, unchanged in substance). The hashes
 * are the caller's, so that the domain needs no crypto here and the caller's hash is the one named.
 */
export function createFirmwarePatch(
  base: Uint8Array,
  target: Uint8Array,
  hashes: { baseSha256: Uint8Array; targetSha256: Uint8Array },
): Uint8Array {
  const sink = new ByteSink();
  for (const byte of encodeFirmwarePatchHeader({
    baseSize: base.length,
    baseSha256: hashes.baseSha256,
    targetSize: target.length,
    targetSha256: hashes.targetSha256,
  }))
    sink.push(byte);
  const sa = suffixArray(base);
  const oldSize = base.length;
  const newSize = target.length;
  let scan = 0;
  let length = 0;
  let position = 0;
  let lastScan = 0;
  let lastPosition = 0;
  let lastOffset = 0;
  while (scan < newSize) {
    let oldScore = 0;
    let scsc = (scan += length);
    for (; scan < newSize; scan++) {
      ({ length, position } = longestMatch(sa, base, target, scan));
      for (; scsc < scan + length; scsc++)
        if (scsc + lastOffset < oldSize && base[scsc + lastOffset] === target[scsc]) oldScore++;
      if ((length === oldScore && length !== 0) || length > oldScore + 8) break;
      if (scan + lastOffset < oldSize && base[scan + lastOffset] === target[scan]) oldScore--;
    }
    if (length === oldScore && scan !== newSize) continue;
    // Extend the previous match forwards and this one backwards, as far as they pay.
    let s = 0;
    let best = 0;
    let forward = 0;
    for (let i = 0; lastScan + i < scan && lastPosition + i < oldSize;) {
      if (base[lastPosition + i] === target[lastScan + i]) s++;
      i++;
      if (s * 2 - i > best * 2 - forward) {
        best = s;
        forward = i;
      }
    }
    let backward = 0;
    if (scan < newSize) {
      s = 0;
      best = 0;
      for (let i = 1; scan >= lastScan + i && position >= i; i++) {
        if (base[position - i] === target[scan - i]) s++;
        if (s * 2 - i > best * 2 - backward) {
          best = s;
          backward = i;
        }
      }
    }
    if (lastScan + forward > scan - backward) {
      const overlap = lastScan + forward - (scan - backward);
      s = 0;
      best = 0;
      let split = 0;
      for (let i = 0; i < overlap; i++) {
        if (target[lastScan + forward - overlap + i] === base[lastPosition + forward - overlap + i]) s++;
        if (target[scan - backward + i] === base[position - backward + i]) s--;
        if (s > best) {
          best = s;
          split = i + 1;
        }
      }
      forward += split - overlap;
      backward -= split;
    }
    const extra = scan - backward - (lastScan + forward);
    const seek = position - backward - (lastPosition + forward);
    sink.pushVarint(forward);
    sink.pushVarint(extra);
    sink.pushVarint(zigzag(seek));
    for (let i = 0; i < forward; i++) sink.push((target[lastScan + i]! - base[lastPosition + i]!) & 0xff);
    for (let i = 0; i < extra; i++) sink.push(target[lastScan + forward + i]!);
    lastScan = scan - backward;
    lastPosition = position - backward;
    lastOffset = position - scan;
  }
  return sink.bytes();
}

/** Reads `length` bytes of the running slot at `offset` (the device's own flash). */
export type ReadBase = (offset: number, length: number) => Promise<Uint8Array>;

type Phase =
  | { kind: 'header' }
  | { kind: 'control'; fields: number[]; value: number; shift: number }
  | { kind: 'diff'; left: number; extra: number }
  | { kind: 'extra'; left: number };

/**
 * Applies a patch as it streams in: push() the patch's bytes in any chunking, get the target's
 * bytes in order. It holds the header, one record's three numbers and, per push, as many base
 * bytes as the chunk has diff bytes: nothing grows with the image.
 */
export class FirmwarePatchApplier {
  private phase: Phase = { kind: 'header' };
  private readonly headerBytes = new Uint8Array(FIRMWARE_PATCH_HEADER_SIZE);
  private headerFill = 0;
  private basePosition = 0;
  private written = 0;
  header: FirmwarePatchHeader | null = null;

  /**
   * `checkBase` runs once the header is in, before any output: it throws when the running image is
   * not the patch's base.
   */
  constructor(
    private readonly readBase: ReadBase,
    private readonly checkBase: (header: FirmwarePatchHeader) => void,
  ) {}

  /** Target bytes produced so far. */
  get produced(): number {
    return this.written;
  }

  /** True once the target is complete (every record consumed). */
  get complete(): boolean {
    return (
      this.header !== null &&
      this.written === this.header.targetSize &&
      this.phase.kind === 'control' &&
      this.phase.fields.length === 0 &&
      this.phase.shift === 0
    );
  }

  async push(chunk: Uint8Array): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < chunk.length) {
      const phase = this.phase;
      if (phase.kind === 'header') {
        const take = Math.min(FIRMWARE_PATCH_HEADER_SIZE - this.headerFill, chunk.length - at);
        this.headerBytes.set(chunk.subarray(at, at + take), this.headerFill);
        this.headerFill += take;
        at += take;
        if (this.headerFill === FIRMWARE_PATCH_HEADER_SIZE) {
          this.header = parseFirmwarePatchHeader(this.headerBytes);
          this.checkBase(this.header);
          this.phase = { kind: 'control', fields: [], value: 0, shift: 0 };
        }
      } else if (phase.kind === 'control') {
        const byte = chunk[at++]!;
        phase.value += (byte & 0x7f) * 2 ** phase.shift;
        phase.shift += 7;
        if (phase.shift > 35) throw corrupt('a record field is too long');
        if (byte & 0x80) continue;
        phase.fields.push(phase.value);
        phase.value = 0;
        phase.shift = 0;
        if (phase.fields.length < 3) continue;
        const [diff, extra, seek] = phase.fields as [number, number, number];
        if (this.written + diff + extra > this.header!.targetSize)
          throw corrupt('a record writes past the target size');
        this.phase = { kind: 'diff', left: diff, extra };
        this.pendingSeek = unzigzag(seek);
        this.settleEmpty();
      } else if (phase.kind === 'diff') {
        const take = Math.min(phase.left, chunk.length - at);
        if (this.basePosition < 0 || this.basePosition + take > this.header!.baseSize)
          throw corrupt('a record reads outside the base image');
        const base = await this.readBase(this.basePosition, take);
        if (base.length !== take) throw corrupt('the base image is shorter than the patch says');
        const produced = new Uint8Array(take);
        for (let i = 0; i < take; i++) produced[i] = (base[i]! + chunk[at + i]!) & 0xff;
        out.push(produced);
        at += take;
        this.basePosition += take;
        this.written += take;
        phase.left -= take;
        this.settleEmpty();
      } else {
        const take = Math.min(phase.left, chunk.length - at);
        out.push(chunk.slice(at, at + take));
        at += take;
        this.written += take;
        phase.left -= take;
        this.settleEmpty();
      }
    }
    return out;
  }

  private pendingSeek = 0;

  /** Moves past a finished diff or extra section (also one of length zero). */
  private settleEmpty(): void {
    for (;;) {
      const phase = this.phase;
      if (phase.kind === 'diff' && phase.left === 0) {
        this.phase = { kind: 'extra', left: phase.extra };
      } else if (phase.kind === 'extra' && phase.left === 0) {
        this.basePosition += this.pendingSeek;
        this.pendingSeek = 0;
        this.phase = { kind: 'control', fields: [], value: 0, shift: 0 };
        return;
      } else return;
    }
  }
}

function corrupt(what: string): FileFormatError {
  return new FileFormatError('FW_CODING_CORRUPT', `The firmware patch is corrupt: ${what}.`);
}

/** Applies a whole patch in memory: for the service's self-check and tests, never on a device. */
export async function applyFirmwarePatch(base: Uint8Array, patch: Uint8Array): Promise<Uint8Array> {
  const applier = new FirmwarePatchApplier(
    async (offset, length) => base.subarray(offset, offset + length),
    () => undefined,
  );
  const parts = await applier.push(patch);
  if (!applier.complete) throw corrupt('it ends before the target is complete');
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const SAMPLE_WINDOW = 16;

function windowHash(data: Uint8Array, at: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < SAMPLE_WINDOW; i++) hash = Math.imul(hash ^ data[at + i]!, 0x01000193);
  return hash >>> 0;
}

/**
 * The share of `target`'s 16-byte windows (sampled every 64 bytes) found anywhere in `base`: a
 * quick look (milliseconds) before the suffix sort (seconds per MiB). Two builds of one firmware
 * share most of theirs; unrelated images (or random test bytes) almost none, and a patch between
 * them would be no smaller than the deflated image.
 */
export function sharedContentFraction(base: Uint8Array, target: Uint8Array): number {
  if (base.length < SAMPLE_WINDOW || target.length < SAMPLE_WINDOW) return 0;
  const seen = new Set<number>();
  for (let at = 0; at + SAMPLE_WINDOW <= base.length; at++) seen.add(windowHash(base, at));
  let sampled = 0;
  let found = 0;
  for (let at = 0; at + SAMPLE_WINDOW <= target.length; at += 64) {
    sampled++;
    if (seen.has(windowHash(target, at))) found++;
  }
  return found / sampled;
}
